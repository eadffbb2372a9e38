//! The heavy jobs of the server (counts, completions, long steps): at most one per client and
//! a few in all, each stopped when its client goes away.
//!
//! A client's new job cancels its previous one (the page asks again whenever a queen moves).
//! The server-wide limit is a semaphore whose permit travels with the job's thread and is
//! released when the work really stops, not when its request ends: a cancelled count still
//! holds its cores until its running tasks finish. A request that waits too long for a
//! permit is told the server is busy. The cancel flag is set when the request's future or
//! response stream is dropped (hyper drops them when the connection closes), by
//! [`CancelOnDrop`].

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// Heavy jobs that may run at once, all clients together: each uses every core.
pub const MAX_JOBS: usize = 2;
/// How long a job waits for a free slot before the client is told the server is busy (long
/// enough for a superseded job of the same client to notice its cancel flag).
const WAIT_FOR_SLOT: Duration = Duration::from_secs(3);

/// The running jobs.
pub struct Jobs {
    slots: Arc<Semaphore>,
    /// Each client's latest job's cancel flag.
    by_client: Mutex<HashMap<String, Arc<AtomicBool>>>,
}

/// A job allowed to run: hold it while working; dropping it frees the slot.
pub struct Job {
    /// Set when the job must stop.
    pub cancel: Arc<AtomicBool>,
    _permit: OwnedSemaphorePermit,
    jobs: Arc<Jobs>,
    client: String,
}

/// Sets a cancel flag when dropped: kept by the request, so that a closed connection stops
/// the work it asked for.
pub struct CancelOnDrop(pub Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Why a job was not started.
#[derive(Debug)]
pub struct Busy;

impl Jobs {
    /// No jobs yet.
    pub fn new() -> Arc<Jobs> {
        Arc::new(Jobs {
            slots: Arc::new(Semaphore::new(MAX_JOBS)),
            by_client: Mutex::new(HashMap::new()),
        })
    }

    /// Starts a job for `client`, cancelling its previous one, once a slot is free.
    pub async fn start(self: &Arc<Jobs>, client: &str) -> Result<Job, Busy> {
        let cancel = Arc::new(AtomicBool::new(false));
        if let Some(previous) = self.lock().insert(client.to_owned(), cancel.clone()) {
            previous.store(true, Ordering::Relaxed);
        }
        let permit = tokio::time::timeout(WAIT_FOR_SLOT, self.slots.clone().acquire_owned()).await;
        let job = |permit| Job {
            cancel: cancel.clone(),
            _permit: permit,
            jobs: self.clone(),
            client: client.to_owned(),
        };
        match permit {
            Ok(Ok(permit)) => Ok(job(permit)),
            _ => {
                self.forget(client, &cancel);
                Err(Busy)
            }
        }
    }

    /// Cancels `client`'s job; whether it had one.
    pub fn cancel(&self, client: &str) -> bool {
        match self.lock().remove(client) {
            Some(flag) => {
                flag.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }

    /// Cancels every job (the server is stopping).
    pub fn cancel_all(&self) {
        for flag in self.lock().drain().map(|(_, f)| f) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// How many jobs hold a slot now.
    pub fn running(&self) -> usize {
        MAX_JOBS - self.slots.available_permits()
    }

    fn forget(&self, client: &str, cancel: &Arc<AtomicBool>) {
        let mut map = self.lock();
        if map.get(client).is_some_and(|c| Arc::ptr_eq(c, cancel)) {
            map.remove(client);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<AtomicBool>>> {
        self.by_client.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        self.jobs.forget(&self.client, &self.cancel);
    }
}
