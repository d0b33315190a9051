// A <select data-autosubmit> submits its form when changed (no inline handlers: the pages'
// Content-Security-Policy allows scripts from static files only).
document.querySelectorAll("select[data-autosubmit]").forEach((el) => {
  const select = /** @type {HTMLSelectElement} */ (el);
  select.addEventListener("change", () => { if (select.form) select.form.submit(); });
});
