// The benchmark's server: `npm start`'s (scripts/serve.mjs) with the floor page added, an empty
// page in the signed-in shell that every page's cost is measured against (./floor.mjs). Kept out
// of the production start path: `npm start` never loads this file.
import { serve } from "../serve.mjs";
import { withFloorRoute } from "./floor.mjs";

await serve({ transformBuild: withFloorRoute });
