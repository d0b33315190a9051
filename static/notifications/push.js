// The settings page's "Allow notifications on this device": subscribes through the scorer's
// service worker (/score/sw.js, which shows the pushes) with the server's VAPID key.
const on = /** @type {HTMLButtonElement|null} */ (document.getElementById("push-on"));
const off = document.getElementById("push-off");
const state = document.getElementById("push-state");

function csrf() {
  const m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return m ? decodeURIComponent(m[1]) : "";
}

function keyBytes(base64url) {
  const pad = "=".repeat((4 - (base64url.length % 4)) % 4);
  const raw = atob((base64url + pad).replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function post(url, body) {
  const r = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
    body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error((await r.text()).slice(0, 200));
}

// The scorer's worker, active. Not navigator.serviceWorker.ready: that waits for the worker of
// the current page's scope, and this page (/notifications/) is outside /score/, so it never comes.
async function registration() {
  const reg = await navigator.serviceWorker.register("/score/sw.js", { scope: "/score/" });
  const worker = reg.installing || reg.waiting;
  if (!reg.active && worker) {
    await new Promise((resolve, reject) => {
      worker.addEventListener("statechange", () => {
        if (worker.state === "activated") resolve(undefined);
        if (worker.state === "redundant") reject(new Error("the service worker did not start"));
      });
    });
  }
  return reg;
}

async function show() {
  const reg = await navigator.serviceWorker.getRegistration("/score/");
  const sub = reg ? await reg.pushManager.getSubscription() : null;
  on.hidden = Boolean(sub);
  off.hidden = !sub;
  if (sub) state.textContent = "This device gets push notifications.";
}

if (on && !("serviceWorker" in navigator && "PushManager" in window)) {
  on.disabled = true;
  state.textContent = "This browser cannot receive push notifications.";
} else if (on) {
  on.addEventListener("click", async () => {
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        state.textContent = "Notifications are blocked for this site in the browser's settings.";
        return;
      }
      const reg = await registration();
      const sub = await reg.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(on.dataset.vapidKey),
      });
      await post(on.dataset.subscribe, sub.toJSON());
      await show();
    } catch (err) {
      state.textContent = `Could not turn notifications on: ${err.message}`;
    }
  });
  off.addEventListener("click", async () => {
    const reg = await navigator.serviceWorker.getRegistration("/score/");
    const sub = reg ? await reg.pushManager.getSubscription() : null;
    if (sub) {
      await post(on.dataset.unsubscribe, { endpoint: sub.endpoint });
      await sub.unsubscribe();
    }
    state.textContent = "This device no longer gets push notifications.";
    await show();
  });
  show();
}
