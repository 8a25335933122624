// How the door puts a listening socket at a name in its directory: bound (0600) and listening under a fresh name of
// its own first, then moved into place in one step. So a name there never points at a socket nobody listens on yet
// (a starting door's half-made control socket once read as a dead door's, and a second door took the home over), and
// the door knows the exact inode it owns: a socket another door put at the same name is never taken for its own.

import { createConnection, type Server } from "node:net";
import { join } from "node:path";
import { placeSocket, removeSocketIfInode, socketInode } from "../../engine/door/serve.js";

let serial = 0;

/** Listens on `path` with mode 0600 (the umask is tightened only around the bind, which node does synchronously). */
function listenPrivate(server: Server, path: string): Promise<void> {
  return new Promise((done, fail) => {
    server.once("error", fail);
    const old = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off("error", fail);
        done();
      });
    } finally {
      process.umask(old);
    }
  });
}

/** A name no other process uses, short enough for any door directory (see SOCKET_PATH_MAX). */
const freshName = (dir: string) => join(dir, `.${process.pid.toString(36)}-${(serial++).toString(36)}.sock`);

/** Listens under a fresh name; undefined when that name was removed at once (a door taking the home clears the directory). */
async function listenFresh(server: Server, dir: string): Promise<{ temp: string; ino: number } | undefined> {
  const temp = freshName(dir);
  await listenPrivate(server, temp);
  const ino = socketInode(temp);
  if (ino === undefined) server.close();
  return ino === undefined ? undefined : { temp, ino };
}

/** Listens at `path`, replacing whatever socket was there; returns the inode it owns. */
export async function listenReplacing(server: Server, dir: string, path: string): Promise<number> {
  const fresh = await listenFresh(server, dir);
  if (!fresh) throw new Error(`the socket for ${path} was removed while it was being made`);
  placeSocket(fresh.temp, path, "replace");
  return fresh.ino;
}

/**
 * Listens at `path` unless a live socket is there already: then closes `server` and returns undefined. A socket
 * nobody answers on (its door died) is removed and the path claimed; anything else at the path is an error.
 */
export async function listenClaiming(server: Server, dir: string, path: string): Promise<number | undefined> {
  const fresh = await listenFresh(server, dir);
  if (!fresh) return undefined; // the door that just took the home cleared the directory: it serves
  const { temp, ino } = fresh;
  const giveUp = () => {
    server.close();
    removeSocketIfInode(temp, ino);
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    let placed: boolean;
    try {
      placed = placeSocket(temp, path, "claim");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      giveUp(); // our fresh name is gone: the door that just took the home cleared the directory
      return undefined;
    }
    if (placed) return ino;
    const there = socketInode(path);
    if (there === undefined) continue; // removed meanwhile, or not a socket (the last attempt says so)
    if (await answers(path)) {
      giveUp();
      return undefined;
    }
    removeSocketIfInode(path, there); // dead: unless another door replaced it meanwhile
  }
  giveUp();
  throw new Error(`${path} is taken by something that is not a live door's socket; remove it and start the door again`);
}

/** True unless the socket at `path` refuses or is gone: a busy door (backlog full, slow reply) is a live one. */
function answers(path: string): Promise<boolean> {
  return new Promise((done) => {
    const conn = createConnection(path);
    const answered = () => {
      conn.destroy();
      done(true);
    };
    conn.setTimeout(2_000, answered);
    conn.on("connect", answered);
    conn.on("error", (error: NodeJS.ErrnoException) => done(error.code !== "ECONNREFUSED" && error.code !== "ENOENT"));
  });
}
