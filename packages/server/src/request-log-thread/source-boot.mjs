// From the sources (tests, `npm start`'s tsx) the thread has no TypeScript loader of its own: this
// registers tsx's, then loads the entry named in `workerData`. The packed dist starts `thread-entry.js` itself.
import { register } from "tsx/esm/api"
import { workerData } from "node:worker_threads"

register()
await import(workerData.entry)
