//! The heavy jobs of the server (live counts, long completions, far solutions, the larger
//! indexes): at most one of each kind per client and a few in all, each stopped when its
//! client goes away.
//!
//! A client's new job cancels its previous one of the same kind (the page asks again whenever
//! a queen moves), and leaves its other kinds running (browsing does not stop a count). The
//! server-wide limit is a semaphore whose permit travels with the job's thread and is
//! released when the work really stops, not when its request ends: a cancelled count still
//! holds its cores until its running tasks finish. A request that waits too long for a
//! permit is told the server is busy. The cancel flag is set when the request's future or
//! response stream is dropped (hyper drops them when the connection closes), by
//! [`CancelOnDrop`]. Light work (a look-up of milliseconds) takes no slot but has a flag
//! too, so that a closed connection stops it all the same.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Heavy jobs that may run at once, all clients together: each uses every core.
pub const MAX_JOBS: usize = 2;
/// How long a job waits for a free slot before the client is told the server is busy (long
/// enough for a superseded job of the same client to notice its cancel flag).
const WAIT_FOR_SLOT: Duration = Duration::from_secs(3);

/// What a heavy job does; a client has at most one of each kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A live count (`/api/count`).
    Count,
    /// The completions of a placement, or its first one on a large board.
    Completions,
    /// Solution k far into a board, or a step on a board whose solutions lie far apart.
    Solution,
    /// The index of a board's solutions, built on its first look-up.
    Index,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 4] = [Kind::Count, Kind::Completions, Kind::Solution, Kind::Index];

    /// The kind's name in `/api/status`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Count => "count",
            Kind::Completions => "completions",
            Kind::Solution => "solution",
            Kind::Index => "index",
        }
    }
}

/// A job's stop flag, and why it was set.
#[derive(Default)]
pub struct Flag {
    /// Read by the engines: set when the work must stop.
    pub stop: AtomicBool,
    why: AtomicU8,
}

/// Why a job stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Why {
    /// Its client closed the connection.
    Gone = 1,
    /// Its client asked (`/api/cancel`).
    Cancelled = 2,
    /// Its client started another job of the same kind.
    Replaced = 3,
    /// The server is stopping.
    Stopping = 4,
}

impl Flag {
    /// Stops the work, for `why` (the first reason given is kept).
    pub fn set(&self, why: Why) {
        let _ = self
            .why
            .compare_exchange(0, why as u8, Ordering::Relaxed, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Why the work was stopped, as the API names it (`None` while it may run).
    pub fn reason(&self) -> Option<&'static str> {
        Some(match self.why.load(Ordering::Relaxed) {
            0 => return None,
            1 => "disconnected",
            2 => "cancelled",
            3 => "replaced",
            _ => "stopping",
        })
    }

    /// Why the work was stopped, in words.
    pub fn explain(&self) -> &'static str {
        match self.reason() {
            Some("replaced") => "this client asked for another one of its kind",
            Some("cancelled") => "the client cancelled it",
            Some("stopping") => "the server is stopping",
            _ => "the client went away",
        }
    }
}

/// The running jobs.
pub struct Jobs {
    slots: Arc<Semaphore>,
    /// Each client's latest job of each kind: its flag.
    by_client: Mutex<HashMap<(String, Kind), Arc<Flag>>>,
    /// The jobs holding a slot: their kind and start.
    running: Mutex<HashMap<u64, (Kind, Instant)>>,
    next_id: AtomicU64,
}

/// A job allowed to run: hold it while working; dropping it frees the slot.
pub struct Job {
    /// Set when the job must stop.
    pub flag: Arc<Flag>,
    _permit: OwnedSemaphorePermit,
    jobs: Arc<Jobs>,
    key: (String, Kind),
    id: u64,
}

/// Sets a flag when dropped: kept by the request, so that a closed connection stops the work
/// it asked for.
pub struct CancelOnDrop(pub Arc<Flag>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.set(Why::Gone);
    }
}

/// Why a job was not started.
#[derive(Debug)]
pub struct Busy;

/// Work about to run: a heavy job holding its slot, or light work with a flag of its own.
pub struct Work {
    /// Set when the work must stop.
    pub flag: Arc<Flag>,
    _job: Option<Job>,
}

impl Jobs {
    /// No jobs yet.
    pub fn new() -> Arc<Jobs> {
        Arc::new(Jobs {
            slots: Arc::new(Semaphore::new(MAX_JOBS)),
            by_client: Mutex::new(HashMap::new()),
            running: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(0),
        })
    }

    /// Starts a job of `kind` for `client`, cancelling its previous one of that kind, once a
    /// slot is free.
    pub async fn start(self: &Arc<Jobs>, client: &str, kind: Kind) -> Result<Job, Busy> {
        let flag = Arc::new(Flag::default());
        let key = (client.to_owned(), kind);
        if let Some(previous) = lock(&self.by_client).insert(key.clone(), flag.clone()) {
            previous.set(Why::Replaced);
        }
        let permit = tokio::time::timeout(WAIT_FOR_SLOT, self.slots.clone().acquire_owned()).await;
        match permit {
            Ok(Ok(permit)) => {
                let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                lock(&self.running).insert(id, (kind, Instant::now()));
                Ok(Job {
                    flag,
                    _permit: permit,
                    jobs: self.clone(),
                    key,
                    id,
                })
            }
            _ => {
                self.forget(&key, &flag);
                Err(Busy)
            }
        }
    }

    /// Starts work for `client`: a heavy job of `kind` ([`Jobs::start`]), or, without a kind,
    /// light work that takes no slot.
    pub async fn begin(self: &Arc<Jobs>, client: &str, kind: Option<Kind>) -> Result<Work, Busy> {
        Ok(match kind {
            Some(kind) => {
                let job = self.start(client, kind).await?;
                Work {
                    flag: job.flag.clone(),
                    _job: Some(job),
                }
            }
            None => Work {
                flag: Arc::default(),
                _job: None,
            },
        })
    }

    /// Cancels `client`'s job of `kind`, or all its jobs; whether it had one.
    pub fn cancel(&self, client: &str, kind: Option<Kind>) -> bool {
        let mut map = lock(&self.by_client);
        let mine: Vec<(String, Kind)> = map
            .keys()
            .filter(|k| k.0 == client && kind.is_none_or(|kind| k.1 == kind))
            .cloned()
            .collect();
        for key in &mine {
            if let Some(flag) = map.remove(key) {
                flag.set(Why::Cancelled);
            }
        }
        !mine.is_empty()
    }

    /// Cancels every job (the server is stopping).
    pub fn cancel_all(&self) {
        for flag in lock(&self.by_client).drain().map(|(_, f)| f) {
            flag.set(Why::Stopping);
        }
    }

    /// The jobs holding a slot now: their kinds and how long they have run, oldest first.
    pub fn running(&self) -> Vec<(Kind, Duration)> {
        let mut jobs: Vec<(u64, Kind, Duration)> = lock(&self.running)
            .iter()
            .map(|(&id, &(kind, started))| (id, kind, started.elapsed()))
            .collect();
        jobs.sort_by_key(|&(id, _, _)| id);
        jobs.into_iter().map(|(_, k, d)| (k, d)).collect()
    }

    fn forget(&self, key: &(String, Kind), flag: &Arc<Flag>) {
        let mut map = lock(&self.by_client);
        if map.get(key).is_some_and(|f| Arc::ptr_eq(f, flag)) {
            map.remove(key);
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Job {
    fn drop(&mut self) {
        lock(&self.jobs.running).remove(&self.id);
        self.jobs.forget(&self.key, &self.flag);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_new_job_replaces_its_kind_only() {
        let jobs = Jobs::new();
        let count = jobs.start("a", Kind::Count).await.unwrap();
        let first = jobs.start("a", Kind::Completions).await.unwrap();
        assert_eq!(count.flag.reason(), None);
        assert_eq!(jobs.running().len(), 2);
        drop(first);
        let second = jobs.start("a", Kind::Completions).await.unwrap();
        assert_eq!(second.flag.reason(), None);
        // Both slots are taken: the third waits until the one it replaced stops.
        let third = tokio::spawn({
            let jobs = jobs.clone();
            async move { jobs.start("a", Kind::Completions).await.is_ok() }
        });
        tokio::task::yield_now().await;
        while second.flag.reason().is_none() {
            tokio::time::sleep(Duration::from_millis(1)).await;
        }
        assert_eq!(second.flag.reason(), Some("replaced"));
        drop(second);
        assert!(third.await.unwrap());
        assert_eq!(count.flag.reason(), None);
        assert!(!jobs.cancel("a", Some(Kind::Solution)));
        assert!(jobs.cancel("a", None));
        assert_eq!(count.flag.reason(), Some("cancelled"));
        assert!(!jobs.cancel("nobody", None));
    }
}
