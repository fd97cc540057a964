/** Entry module of a parse worker (see pool.ts). */
import { serveParseRequests } from "./worker.ts";

serveParseRequests();
