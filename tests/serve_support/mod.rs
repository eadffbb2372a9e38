//! What the serve tests share: a real `nqueens serve` on a free loopback port, an HTTP client
//! that returns error statuses instead of failing on them, the API calls that more than one
//! test file makes, and ([`browser`]) the headless browser of the browser tests. Nothing here
//! can hang a test: every HTTP call has a deadline, the server's start and stop are waited
//! for within a bound, and a server still running after [`SERVER_LIFETIME`] is killed.

#![allow(dead_code)]

pub mod browser;

use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest any HTTP call of a test (its whole body read included) may take.
pub const CALL_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest a server may live: a test still running then has hung.
pub const SERVER_LIFETIME: Duration = Duration::from_secs(600);
/// The longest the server may take to print its address, or to stop on Ctrl-C.
const START_OR_STOP: Duration = Duration::from_secs(30);

/// A running `nqueens serve`, killed when dropped (or when it has lived too long).
pub struct Server {
    child: Arc<Mutex<Option<Child>>>,
    /// Dropped with the server: tells the watchdog to stand down.
    _alive: mpsc::Sender<()>,
    /// `http://127.0.0.1:PORT/`, from the first line of its stdout.
    pub url: String,
}

impl Server {
    /// Starts the server on 127.0.0.1 and waits for its address.
    pub fn start() -> Server {
        Server::start_at("127.0.0.1:0")
    }

    /// Starts the server on `addr` (a loopback address) and waits for its address.
    pub fn start_at(addr: &str) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nqueens"))
            .args(["serve", "--addr", addr])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("nqueens serve starts");
        let stdout = child.stdout.take().unwrap();
        let child = Arc::new(Mutex::new(Some(child)));
        let (alive, watched) = mpsc::channel::<()>();
        {
            let child = child.clone();
            std::thread::spawn(move || {
                // Only a server that outlives its time is killed; a dropped one is gone.
                if watched.recv_timeout(SERVER_LIFETIME) == Err(mpsc::RecvTimeoutError::Timeout)
                    && let Some(child) = child.lock().unwrap().as_mut()
                {
                    let _ = child.kill();
                }
            });
        }
        // Made before the wait for its address, so that a failed wait kills it too.
        let mut server = Server {
            child,
            _alive: alive,
            url: String::new(),
        };
        let (sent, first) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sent.send(line);
        });
        let url = first
            .recv_timeout(START_OR_STOP)
            .expect("the server prints its address in time")
            .trim()
            .to_owned();
        assert!(
            url.starts_with("http://") && url.ends_with('/'),
            "first line: {url:?}"
        );
        server.url = url;
        server
    }

    /// The address of `path` (no leading slash).
    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }

    /// Sends SIGINT (what Ctrl-C sends) and waits, within a bound: the exit status and stderr.
    pub fn interrupt(self) -> (ExitStatus, String) {
        self.signal("INT")
    }

    /// Sends the server signal `name` (`INT`, `TERM`, `HUP`) and waits for it to stop, as
    /// [`Server::interrupt`].
    pub fn signal(self, name: &str) -> (ExitStatus, String) {
        let mut child = self.child.lock().unwrap().take().unwrap();
        let status = Command::new("kill")
            .args([&format!("-{name}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let started = Instant::now();
        let exit = loop {
            if let Some(exit) = child.try_wait().unwrap() {
                break exit;
            }
            if started.elapsed() > START_OR_STOP {
                let _ = child.kill();
                let _ = child.wait();
                panic!("the server did not stop within {START_OR_STOP:?} of Ctrl-C");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
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
        if let Some(child) = self
            .child
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// An HTTP client for the tests: statuses are answers, not errors, and no call takes longer
/// than [`CALL_TIMEOUT`], its body included.
pub fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(CALL_TIMEOUT))
        .build()
        .into()
}

/// A raw connection to the server, for what an HTTP client will not send (nothing, half a
/// head, a malformed one); its reads and writes time out after [`CALL_TIMEOUT`].
pub fn raw(server: &Server) -> std::net::TcpStream {
    let address = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/');
    let stream = std::net::TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(CALL_TIMEOUT)).unwrap();
    stream.set_write_timeout(Some(CALL_TIMEOUT)).unwrap();
    stream
}

/// Reads `stream` until the server closes it, for at most `bound`: what the server sent, and
/// when it closed (`None` if it was still open after `bound`).
pub fn read_until_closed(
    mut stream: std::net::TcpStream,
    bound: Duration,
) -> (Vec<u8>, Option<Duration>) {
    let started = Instant::now();
    let mut received = Vec::new();
    let mut buffer = [0; 65536];
    loop {
        let left = bound.saturating_sub(started.elapsed());
        if left.is_zero() {
            return (received, None);
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buffer) {
            Ok(0) => return (received, Some(started.elapsed())),
            Ok(n) => received.extend_from_slice(&buffer[..n]),
            // Closed with data unread on its side: a reset is a close too.
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (received, Some(started.elapsed()));
            }
            Err(_) => return (received, None),
        }
    }
}

/// GET: the status and the JSON body.
pub fn get(server: &Server, path: &str) -> (u16, Value) {
    let mut response = agent().get(&server.at(path)).call().unwrap();
    let status = response.status().as_u16();
    (status, response.body_mut().read_json().unwrap())
}

/// Every line of a JSON Lines response.
pub fn lines(response: ureq::http::Response<ureq::Body>) -> Vec<Value> {
    BufReader::new(response.into_body().into_reader())
        .lines()
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect()
}

/// POSTs a placement to the completions endpoint as `client`.
pub fn completions(server: &Server, client: &str, body: &str) -> ureq::http::Response<ureq::Body> {
    agent()
        .post(&server.at("api/completions"))
        .header("x-client", client)
        .header("content-type", "application/json")
        .send(body)
        .unwrap()
}

/// Waits until the server runs `jobs` heavy jobs.
pub fn wait_for_jobs(server: &Server, jobs: u64) {
    let started = Instant::now();
    loop {
        let (_, status) = get(server, "api/status");
        if status["jobs"] == jobs {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "still {status}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The lines of a stream still to come.
pub type Stream = std::io::Lines<BufReader<ureq::BodyReader<'static>>>;

/// Starts a live count of n as `client` and waits until it runs: the lines after its first.
pub fn running_count(server: &Server, n: u32, client: &str) -> Stream {
    let response = agent()
        .get(&server.at(&format!("api/count?n={n}")))
        .header("x-client", client)
        .call()
        .unwrap();
    let mut reader = BufReader::new(response.into_body().into_reader()).lines();
    assert!(reader.next().unwrap().unwrap().contains("progress"));
    wait_for_jobs(server, 1);
    reader
}
