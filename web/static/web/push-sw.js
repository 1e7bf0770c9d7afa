// The service worker of the web table: shows a pushed notification (decrypted by the browser)
// and opens the match it is about when it is clicked.

self.addEventListener("push", (event) => {
  let message = { title: "fibserver", body: "", url: "/play/" };
  try {
    message = { ...message, ...event.data.json() };
  } catch {
    // not JSON: the default text
  }
  const tag = message.notification ? `fib-${message.notification.id}` : undefined;
  event.waitUntil(self.registration.showNotification(message.title, { body: message.body, tag, data: { url: message.url } }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || "/play/", self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window" }).then((windows) => {
      for (const w of windows) {
        if (w.url.startsWith(self.location.origin + "/play/")) {
          w.navigate(url);
          return w.focus();
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
