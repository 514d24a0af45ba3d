/**
 * The permission table's rows for the JSON API: each case as every actor
 * (tests/integration/permissions-table.test.ts checks that every route has a row).
 */
import { ROWS_API } from "./rows-api";
import { describeRows, sharedFixture } from "./runner";

describeRows(ROWS_API, sharedFixture());
