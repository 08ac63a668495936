//! The hostile-input sweep, kept as tests: case files built to exhaust memory or time, folders
//! that loop, adapters that flood, lie, detach or refuse to stop, archives that explode, and
//! interrupts. Each test runs the built binary and asserts the bounded outcome: the exit code,
//! an error naming the file and line where there is one, a peak memory under a stated cap, and
//! no process left behind (checked by process group and pid).

mod adapters;
mod archives;
mod case_files;
mod census_plans;
mod descendants;
mod export;
mod inputs;
mod install;
mod interrupts;
mod orphans;
mod output;
mod plans;
mod planted;
mod readers;
mod reports_folder;
mod restarts;
mod results_files;
mod runner_commands;
mod support;
