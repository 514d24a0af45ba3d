/**
 * The permission table's rows for signing in, signing up and invitations: each case as every actor
 * (tests/integration/permissions-table.test.ts checks that every route has a row).
 */
import { ROWS_AUTH } from "./rows-auth";
import { describeRows, sharedFixture } from "./runner";

describeRows(ROWS_AUTH, sharedFixture());
