import { runServer } from "./serve.ts"

/** `npm start`: the server configured by the environment (docs/server.md; `paykit start` is the same with flags). */
runServer()
