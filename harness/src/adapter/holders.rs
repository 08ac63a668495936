//! Finding the processes that hold a pipe open. An adapter that starts a helper which leaves its
//! process group (`setsid`) and keeps the adapter's stdout open is out of reach of a group kill;
//! the pipe's inode, which `/proc/<pid>/fd` shows as `pipe:[N]`, still names it. On systems
//! without `/proc` the list is empty and the group kill is all there is.

use std::fs;
use std::os::fd::AsRawFd;

/// The inode of the pipe behind `fd`, if it is one.
pub fn pipe_inode(fd: &impl AsRawFd) -> Option<u64> {
    // SAFETY: fstat(2) on a descriptor we own, into a zeroed, properly sized struct.
    let mut stat: libc::stat = unsafe { std::mem::zeroed() };
    let ok = unsafe { libc::fstat(fd.as_raw_fd(), &mut stat) } == 0;
    (ok && (stat.st_mode & libc::S_IFMT) == libc::S_IFIFO).then_some(stat.st_ino as u64)
}

/// Every other process with a descriptor on the pipe `inode`.
pub fn holding_pipe(inode: u64) -> Vec<i32> {
    let target = format!("pipe:[{inode}]");
    let own = std::process::id() as i32;
    let Ok(processes) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    processes
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|&pid| pid != own)
        .filter(|pid| {
            fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
                fds.filter_map(Result::ok).any(|fd| {
                    fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == target.as_str())
                })
            })
        })
        .collect()
}
