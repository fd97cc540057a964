/**
 * A turn of the event loop: what is ready (socket reads and writes, the database's replies) runs
 * before the caller goes on. A timer would do it too, but `setTimeout(0)` costs about 2 ms each
 * time here (200 turns: 440 ms, against 9 ms this way): a message on a fresh channel is a task of
 * its own at once. The channel is closed again, so nothing is left open to keep the process alive.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
    port2.close();
  });
}
