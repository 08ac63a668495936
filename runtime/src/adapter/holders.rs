//! Finding the processes that hold a pipe open. An adapter that starts a helper which leaves its
//! process group (`setsid`) and keeps the adapter's stdout open is out of reach of a group kill;
//! the pipe's inode, which `/proc/<pid>/fd` shows as `pipe:[N]`, still names it. On systems
//! without `/proc` the list is empty and the group kill is all there is.

use std::fs;
use std::os::fd::AsFd;

use rustix::fs::{fstat, FileType};

/// The inode of the pipe behind `fd`, if it is one.
pub fn pipe_inode(fd: &impl AsFd) -> Option<u64> {
    let stat = fstat(fd).ok()?;
    (FileType::from_raw_mode(stat.st_mode) == FileType::Fifo).then_some(stat.st_ino)
}

/// Every other process with a descriptor on the pipe `inode`, except this process's own
/// children: a child forked to start another adapter holds a copy of every descriptor until it
/// executes its program, and killing it would kill that adapter as it starts. The adapter itself
/// is a child too, but its process group is killed anyway.
pub fn holding_pipe(inode: u64) -> Vec<i32> {
    let target = format!("pipe:[{inode}]");
    let own = std::process::id() as i32;
    let Ok(processes) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    processes
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != own && parent_of(pid) != Some(own))
        .filter(|pid| {
            fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
                fds.filter_map(Result::ok).any(|fd| {
                    fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == target.as_str())
                })
            })
        })
        .collect()
}

/// The parent of `pid`, from `/proc/<pid>/stat` (the field after the parenthesised command name,
/// which may itself hold spaces and parentheses).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_of_this_process_is_known_by_its_parent() {
        let mut child = std::process::Command::new("sleep")
            .arg("5")
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        assert_eq!(parent_of(pid), Some(std::process::id() as i32));
        child.kill().unwrap();
        child.wait().unwrap();
    }
}
