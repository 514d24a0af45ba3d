/**
 * The permission table's rows for public pages, site endpoints, resources and local stand-ins: each case as every actor
 * (tests/integration/permissions-table.test.ts checks that every route has a row).
 */
import { ROWS_PUBLIC } from "./rows-public";
import { describeRows, sharedFixture } from "./runner";

describeRows(ROWS_PUBLIC, sharedFixture());
