/**
 * The permission table's rows for the dashboard's pages and forms: each case as every actor
 * (tests/integration/permissions-table.test.ts checks that every route has a row).
 */
import { ROWS_PAGES } from "./rows-pages";
import { describeRows, sharedFixture } from "./runner";

describeRows(ROWS_PAGES, sharedFixture());
