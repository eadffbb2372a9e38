//! What the serve tests share: a real `nqueens serve` on a free loopback port, and an HTTP
//! client that returns error statuses instead of failing on them.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};

/// A running `nqueens serve`, killed when dropped.
pub struct Server {
    child: Option<Child>,
    /// `http://127.0.0.1:PORT/`, from the first line of its stdout.
    pub url: String,
}

impl Server {
    /// Starts the server and waits for its address.
    pub fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("nqueens serve starts");
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut first)
            .unwrap();
        let url = first.trim().to_owned();
        assert!(
            url.starts_with("http://127.0.0.1:") && url.ends_with('/'),
            "first line: {url:?}"
        );
        Server {
            child: Some(child),
            url,
        }
    }

    /// The address of `path` (no leading slash).
    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// Sends SIGINT (what Ctrl-C sends) and waits: the exit status and stderr.
    pub fn interrupt(mut self) -> (ExitStatus, String) {
        let mut child = self.child.take().unwrap();
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let exit = child.wait().unwrap();
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        (exit, stderr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// An HTTP client for the tests: statuses are answers, not errors.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}
