//! The supervisor between the harness and every process it starts, so that no descendant
//! outlives the harness, whatever ends it and whatever the child does (fork, `setsid`, a double
//! fork, SIGTERM ignored).
//!
//! A process group and a parent-death signal reach the child alone: a grandchild in a session of
//! its own is reparented to init when its parent dies, and runs on. So the process that
//! [`std::process::Command::spawn`] forks does not exec: it makes itself the *child subreaper*
//! of everything below it (`PR_SET_CHILD_SUBREAPER`: an orphan anywhere below is reparented to
//! it, not to init), forks the real child, which goes on to exec, and waits. When the real child
//! exits, or when the read end of a pipe whose only writer is the harness reaches its end (the
//! harness asked, or the harness died, SIGKILL included: the kernel closes its descriptors), it
//! kills every process below it, level by level (each killed process's children are reparented
//! to it, listed in `/proc/thread-self/children`), until it has no child left, and only then
//! exits, with the real child's status (a child killed by a signal is reported killed by it). So
//! the harness sees the supervisor as the child: its pid, its pipes, its exit status. Before it
//! exits it writes, on a second pipe, how many other processes it had to kill (a crawler's
//! detached helper is a fault of the crawler's, and reported).
//!
//! Between `fork` and `exec` a process forked from a program with threads may only make
//! async-signal-safe calls: no allocation, no lock. Everything below is a raw system call
//! through `libc`, on the stack.

use std::io;
use std::os::fd::RawFd;

/// How many descriptors beyond its pipe a supervisor may keep open (an install lock).
pub const MAX_HELD: usize = 4;

/// What the supervisor keeps: the read end of its pipe from the harness, the write end of its
/// pipe to the harness, and descriptors that must stay open until its tree is gone (a lock held
/// on behalf of the tree).
#[derive(Debug, Clone, Copy)]
pub struct Kept {
    pub pipe: RawFd,
    pub report: RawFd,
    pub held: [RawFd; MAX_HELD],
}

/// At most this many distinct processes killed are counted (a fork bomb is reported as this).
const COUNTED: usize = 256;

/// Run in the process `Command::spawn` forked, before its exec (a `pre_exec` hook). Returns in
/// the real child, which then execs; never returns in the supervisor. A supervisor whose harness
/// is already gone kills its child at once: its pipe is at its end.
pub fn split(kept: Kept) -> io::Result<()> {
    // SAFETY: only async-signal-safe system calls, on values of this stack frame.
    unsafe {
        if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 {
            return Err(io::Error::last_os_error());
        }
        let supervisor = libc::getpid();
        // A raw fork: the C library's `fork` runs handlers that may take locks a thread of the
        // harness held when this process was forked.
        let child = libc::syscall(libc::SYS_clone, libc::SIGCHLD as libc::c_long, 0, 0, 0, 0);
        if child < 0 {
            return Err(io::Error::last_os_error());
        }
        if child == 0 {
            // The real child: killed by the kernel if its supervisor dies (a SIGKILL sent to
            // it), and starting only if the supervisor is still there.
            libc::close(kept.pipe);
            libc::close(kept.report);
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
            if libc::getppid() != supervisor {
                libc::_exit(127);
            }
            return Ok(());
        }
        supervise(child as libc::pid_t, kept)
    }
}

/// The supervisor's life: close everything the fork copied, wait for the child's exit or the
/// pipe's end, kill the tree, exit as the child did.
///
/// # Safety
/// Call only in the supervisor process, right after it forked `child`.
unsafe fn supervise(child: libc::pid_t, kept: Kept) -> ! {
    close_all_but(kept);
    // Signals that would end the supervisor and leave the tree: sent to the process group (which
    // it shares with the child) or to it alone. SIGKILL cannot be ignored; the harness never
    // sends it to a supervised group before the supervisor is gone.
    for signal in [
        libc::SIGTERM,
        libc::SIGINT,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGPIPE,
        libc::SIGUSR1,
        libc::SIGUSR2,
        libc::SIGALRM,
        libc::SIGTSTP,
        libc::SIGTTIN,
        libc::SIGTTOU,
    ] {
        libc::signal(signal, libc::SIG_IGN);
    }
    let pidfd = libc::syscall(libc::SYS_pidfd_open, child as libc::c_long, 0) as libc::c_int;
    let mut status: Option<libc::c_int> = None;
    loop {
        let mut fds = [
            libc::pollfd {
                fd: kept.pipe,
                events: libc::POLLIN,
                revents: 0,
            },
            libc::pollfd {
                fd: pidfd,
                events: libc::POLLIN,
                revents: 0,
            },
        ];
        // Without a pidfd (a kernel before 5.3), the child's exit is looked for every 10 ms.
        let (count, timeout) = if pidfd >= 0 { (2, -1) } else { (1, 10) };
        let ready = libc::poll(fds.as_mut_ptr(), count, timeout);
        if ready < 0 && *libc::__errno_location() != libc::EINTR {
            break;
        }
        if fds[0].revents != 0 {
            break;
        }
        let mut raw = 0;
        if libc::waitpid(child, &mut raw, libc::WNOHANG) == child {
            status = Some(raw);
            break;
        }
    }
    let killed = end_tree(child, &mut status);
    let bytes = (killed as u32).to_le_bytes();
    libc::write(kept.report, bytes.as_ptr().cast(), bytes.len());
    exit_as(status)
}

/// Closes every descriptor but the ones kept: the copies of the harness's pipes (another
/// adapter's output, another supervisor's pipe) must not be held open here.
unsafe fn close_all_but(kept: Kept) {
    let mut keep = [kept.pipe; MAX_HELD + 2];
    keep[1] = kept.report;
    let mut count = 2;
    for fd in kept.held.iter().copied().filter(|&fd| fd >= 0) {
        keep[count] = fd;
        count += 1;
    }
    let keep = &mut keep[..count];
    keep.sort_unstable();
    let mut from: libc::c_uint = 0;
    for &fd in keep.iter() {
        let fd = fd as libc::c_uint;
        if fd > from {
            close_range(from, fd - 1);
        }
        from = fd + 1;
    }
    close_range(from, libc::c_uint::MAX);
}

unsafe fn close_range(first: libc::c_uint, last: libc::c_uint) {
    if libc::syscall(libc::SYS_close_range, first, last, 0) == 0 {
        return;
    }
    // A kernel before 5.9: one by one, up to a bound the harness stays under.
    for fd in first..=last.min(65_535) {
        libc::close(fd as libc::c_int);
    }
}

/// Kills every process below the supervisor, level by level, and reaps them all; records the
/// child's status when it is reaped here. Returns how many processes other than the child it
/// killed (distinct, up to [`COUNTED`]).
unsafe fn end_tree(child: libc::pid_t, status: &mut Option<libc::c_int>) -> usize {
    let mut killed = Killed {
        pids: [0; COUNTED],
        count: 0,
        child,
    };
    loop {
        let listed = kill_children(&mut killed);
        loop {
            let mut raw = 0;
            let reaped = libc::waitpid(-1, &mut raw, libc::WNOHANG);
            if reaped == child {
                *status = Some(raw);
            }
            if reaped > 0 {
                continue;
            }
            if reaped < 0 && *libc::__errno_location() == libc::ECHILD {
                return killed.count;
            }
            break;
        }
        if listed < 0 {
            // No list of children (a kernel without CONFIG_PROC_CHILDREN): the child's group
            // is what can still be reached.
            libc::kill(-child, libc::SIGKILL);
            libc::kill(child, libc::SIGKILL);
        }
        // The killed ones take a moment to die; their children are then reparented here.
        let pause = libc::timespec {
            tv_sec: 0,
            tv_nsec: 1_000_000,
        };
        libc::nanosleep(&pause, std::ptr::null_mut());
    }
}

/// The distinct processes killed, but the child.
struct Killed {
    pids: [libc::pid_t; COUNTED],
    count: usize,
    child: libc::pid_t,
}

impl Killed {
    fn kill(&mut self, pid: libc::pid_t) {
        // SAFETY: a system call on a number.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        if pid == self.child || self.pids[..self.count].contains(&pid) || self.count == COUNTED {
            return;
        }
        self.pids[self.count] = pid;
        self.count += 1;
    }
}

/// Sends SIGKILL to every child the supervisor has now; how many were listed, or -1 when the
/// list cannot be read.
unsafe fn kill_children(killed: &mut Killed) -> i64 {
    let path = c"/proc/thread-self/children";
    let fd = libc::open(path.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
    if fd < 0 {
        return -1;
    }
    let mut listed = 0;
    let mut buffer = [0u8; 512];
    let mut pid: libc::pid_t = 0;
    let mut in_number = false;
    loop {
        let n = libc::read(fd, buffer.as_mut_ptr().cast(), buffer.len());
        if n <= 0 {
            break;
        }
        for &byte in &buffer[..n as usize] {
            if byte.is_ascii_digit() {
                pid = pid
                    .saturating_mul(10)
                    .saturating_add((byte - b'0') as libc::pid_t);
                in_number = true;
            } else if in_number {
                killed.kill(pid);
                listed += 1;
                pid = 0;
                in_number = false;
            }
        }
    }
    if in_number {
        killed.kill(pid);
        listed += 1;
    }
    libc::close(fd);
    listed
}

/// Ends the supervisor the way its child ended: the same exit code, or killed by the same
/// signal (without a core file of its own).
unsafe fn exit_as(status: Option<libc::c_int>) -> ! {
    let Some(raw) = status else { libc::_exit(127) };
    if libc::WIFEXITED(raw) {
        libc::_exit(libc::WEXITSTATUS(raw));
    }
    if libc::WIFSIGNALED(raw) {
        let signal = libc::WTERMSIG(raw);
        let no_core = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        libc::setrlimit(libc::RLIMIT_CORE, &no_core);
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal);
    }
    libc::_exit(127)
}
