import { describeJobWaking } from "../cases/job-waking";

describeJobWaking();
