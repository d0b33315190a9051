"""Web push on the notification settings page (issue 33, item 2), in a browser: "Allow notifications
on this device" registers the scorer's service worker, subscribes with the server's VAPID key and
hands the subscription to the server; "Stop on this device" takes it back.

The settings page lies outside the worker's scope (/score/), so it cannot wait for
navigator.serviceWorker.ready (that is the current page's worker: it never comes). Headless
Chromium has no push service, so PushManager.subscribe is stood in for by a subscription with a
public endpoint; everything else (permission, registration, activation, the posts) is real."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth import get_user_model

from notifications.models import PushSubscription

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ENDPOINT = "https://93.184.216.34/push/device-1"
# A stand-in for the browser's push service: the subscription a browser would hand back, kept per
# registration so getSubscription() finds it after subscribe().
FAKE_PUSH = """
(() => {
  const subs = new WeakMap();
  const make = (reg, options) => ({
    endpoint: "ENDPOINT",
    options,
    toJSON() {
      return { endpoint: this.endpoint, keys: { p256dh: "BP" + "k".repeat(85), auth: "a".repeat(22) } };
    },
    async unsubscribe() { subs.delete(reg); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    if (!options || !options.applicationServerKey) throw new Error("no applicationServerKey");
    const sub = make(this, options);
    subs.set(this, sub);
    return sub;
  };
  PushManager.prototype.getSubscription = async function () { return subs.get(this) || null; };
})();
""".replace("ENDPOINT", ENDPOINT)


def _vapid_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def test_a_device_is_subscribed_to_push_from_the_settings_page_and_stopped(
    browser, live_server, settings, shot
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.WEBPUSH_VAPID_PRIVATE_KEY = _vapid_pem()
    settings.WEBHOOK_ALLOW_PRIVATE = False  # the endpoint is checked as in production
    user = get_user_model().objects.create_user("pia", "pia@example.org", "push-pass-2027")
    origin = live_server.url
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.grant_permissions(["notifications"], origin=origin)
    context.add_init_script(FAKE_PUSH)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{origin}/login/?next=/notifications/settings/")
        page.fill("#id_username", "pia")
        page.fill("#id_password", "push-pass-2027")
        page.click("button[type=submit]")
        page.wait_for_url("**/notifications/settings/")
        state = page.locator("#push-state")
        page.click("#push-on")
        page.wait_for_function(
            "() => document.getElementById('push-state').textContent.includes('This device gets')"
        )
        assert page.locator("#push-off").is_visible() and not page.locator("#push-on").is_visible()
        (sub,) = PushSubscription.objects.filter(user=user)
        assert sub.endpoint == ENDPOINT
        # The worker that shows the pushes is the scorer's, registered for its scope.
        scope = page.evaluate("navigator.serviceWorker.getRegistration('/score/').then(r => r && r.scope)")
        assert scope == f"{origin}/score/"
        shot(page, "notifications-settings-push-phone")

        page.click("#push-off")
        page.wait_for_function(
            "() => document.getElementById('push-state').textContent.includes('no longer gets')"
        )
        assert not PushSubscription.objects.filter(user=user).exists()
        assert state.is_visible() and page.locator("#push-on").is_visible()
    finally:
        context.close()
