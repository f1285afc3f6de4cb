// A raw HTTP exchange for the server tests on Node: bytes as they are, to a server on 127.0.0.1.
import { connect } from "node:net";

/** Sends `text` to `base`'s port; resolves with what came back before the socket closed or `ms` passed. */
export function raw(base, text, ms = 1500) {
  const { port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    const done = () => {
      socket.destroy();
      resolve(answer);
    };
    socket.on("data", (d) => { answer += d.toString("latin1"); });
    socket.on("error", done);
    socket.on("close", done);
    setTimeout(done, ms);
    socket.write(text);
  });
}
