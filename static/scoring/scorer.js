/* Loader for pages that include the scorer as a classic script (the match page's live panel):
   the scorer is plain ES modules (js/main.js), loaded next to this file. */
(function () {
  "use strict";
  var me = document.currentScript;
  if (!me || !document.getElementById("scorer")) return;
  import(new URL("js/main.js", me.src).href);
})();
