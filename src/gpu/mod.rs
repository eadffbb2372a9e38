//! Counting on a GPU, through wgpu (Vulkan on Linux and Windows, Metal on macOS, DX12 on
//! Windows); built with the `gpu` feature.
//!
//! It counts the engines' own numbered tasks, so a task's value is the number [`Plan::run`]
//! gives and progress, checkpoints, shards and MPI treat GPU runs like any other. The join
//! engine's tasks ([`Plan::Join`]): the host makes the half-boards and indexes and the device
//! counts the pairs (`join.rs`, `join.wgsl`). The search's ([`Plan::Mirror`] or
//! [`Plan::Full`]): each task is cut on the host into items a few rows from the bottom;
//! one shader invocation (`search.wgsl`) counts the completions of one item by the bitmask
//! search with an explicit stack, in 32-bit integers, and the host sums them in `u128`.
//!
//! No invocation runs more than a fixed number of loop iterations per dispatch: one that
//! would is stopped by the shader itself and its item split by one more row on the host. That
//! bounds the work of a dispatch (display GPUs have watchdogs), keeps every per-invocation
//! count far below `u32::MAX`, and keeps under lavapipe's silent cap of 65,535 loop
//! iterations. An invocation stopped by anything else (such a cap) leaves its result marked
//! unfinished, and the whole count is refused with an error rather than returned wrong.
//!
//! ```no_run
//! # #[cfg(feature = "gpu")] {
//! use nqueens::{Engine, Plan, Symmetry};
//! let gpu = nqueens::gpu::Gpu::open(None)?;
//! let plan = Plan::new(12, Engine::Search(Symmetry::Mirror), 2)?;
//! let ids: Vec<usize> = (0..plan.len()).collect();
//! let values = gpu.run(12, &plan, &ids, &mut |_, _| {})?;
//! assert_eq!(values.iter().sum::<u128>(), 14_200);
//! # }
//! # Ok::<(), nqueens::Error>(())
//! ```

mod adapter;
mod device;
mod join;
mod layout;
mod work;

pub use adapter::AdapterInfo;
#[doc(hidden)]
pub use device::has_adapter;

use crate::engine::Plan;
use crate::error::Error;
use device::Device;
use std::sync::atomic::AtomicBool;
use work::{Shape, Tasks};

/// Every adapter found, best first: discrete GPUs, integrated, virtual, software, other.
/// Empty where there is no GPU driver (or, for Vulkan, no loader: `libvulkan1`).
pub fn adapters() -> Vec<AdapterInfo> {
    device::adapters()
        .into_iter()
        .map(|(info, _)| info)
        .collect()
}

/// A GPU opened for counting, with the search compiled for it.
pub struct Gpu {
    device: Device,
    shape: Shape,
    /// Host threads making the join's half-boards.
    host_threads: usize,
}

impl Gpu {
    /// Opens the best adapter ([`adapters`] order), or the first whose name contains `name`
    /// (case-insensitive). Under MPI, with one rank per GPU, each rank takes the adapter of
    /// its local rank among the best ones that match, modulo their number (the launcher's
    /// `OMPI_COMM_WORLD_LOCAL_RANK`, `MPI_LOCALRANKID` or `SLURM_LOCALID`): the ranks of a
    /// node with eight GPUs spread over all eight. Errors: no adapter at all,
    /// none that matches (the message lists those found), or one that cannot run the
    /// shaders.
    pub fn open(name: Option<&str>) -> Result<Gpu, Error> {
        Gpu::open_with(name, device::SHADERS)
    }

    fn open_with(name: Option<&str>, shaders: device::Shaders) -> Result<Gpu, Error> {
        let found = device::adapters();
        if found.is_empty() {
            return Err(Error::Gpu(
                "no GPU adapter found: a GPU driver is needed (for Vulkan on Debian or Ubuntu, \
                 `apt-get install libvulkan1 mesa-vulkan-drivers` gives at least the software \
                 one)"
                    .into(),
            ));
        }
        let wanted = name.map(str::to_lowercase);
        let matching: Vec<_> = found
            .iter()
            .filter(|(info, _)| match &wanted {
                Some(wanted) => info.name.to_lowercase().contains(wanted.as_str()),
                None => true,
            })
            .collect();
        // The best kind that matches (discrete GPUs before a software one on the same node).
        let best: Vec<_> = matching
            .iter()
            .filter(|(info, _)| {
                Some(&info.device_type) == matching.first().map(|m| &m.0.device_type)
            })
            .collect();
        let chosen = (!best.is_empty()).then(|| best[local_rank(&env_var) % best.len()]);
        let Some((info, adapter)) = chosen else {
            let names: Vec<String> = found
                .iter()
                .map(|(info, _)| format!("{} ({})", info.name, info.backend))
                .collect();
            return Err(Error::Gpu(format!(
                "no GPU adapter's name contains '{}'; found: {}",
                name.unwrap_or_default(),
                names.join(", ")
            )));
        };
        let device = Device::open(info.clone(), adapter, shaders)?;
        let shape = if device.is_software() {
            Shape::SOFTWARE
        } else {
            Shape::HARDWARE
        };
        Ok(Gpu {
            device,
            shape,
            host_threads: 1,
        })
    }

    /// The adapter in use.
    pub fn adapter(&self) -> &AdapterInfo {
        self.device.info()
    }

    /// Sets the most loop iterations one invocation runs per dispatch before its item is
    /// split further (default: 60,000 on software devices, 2^22 on others). Above 65,535,
    /// lavapipe stops invocations early, which [`Gpu::run`] detects and refuses: a way to
    /// check that guard. At most `u32::MAX / 24`, so that no count overflows.
    pub fn budget(mut self, iterations: u32) -> Gpu {
        self.shape.budget = iterations.clamp(1, u32::MAX / 24);
        self
    }

    /// Sets how many rows are left below the items a task is first cut into (default 11 on
    /// software devices, 13 on others; 4 to 32): fewer make more, smaller items.
    pub fn item_rows(mut self, rows: u32) -> Gpu {
        self.shape.rows_left = rows.clamp(4, 32);
        self
    }

    /// Sets how many host threads make the join engine's half-boards and indexes for the
    /// device (default 1; at least 1): each fills its own batches, so the device is fed by
    /// all of them at once.
    pub fn host_threads(mut self, threads: usize) -> Gpu {
        self.host_threads = threads.max(1);
        self
    }

    /// Counts the tasks `ids` of `plan`, a plan of the n x n board (the search's or the join
    /// engine's), and returns their values (as [`Plan::run`] gives them) in the order of
    /// `ids`. `on_task(id, value)` is called as each task finishes, on the calling thread.
    pub fn run(
        &self,
        n: u32,
        plan: &Plan,
        ids: &[usize],
        on_task: &mut dyn FnMut(usize, u128),
    ) -> Result<Vec<u128>, Error> {
        self.run_until(n, plan, ids, on_task, &AtomicBool::new(false))
    }

    /// [`Gpu::run`], stopped with [`Error::Cancelled`] when `cancel` is set: it is read
    /// before each batch of the search's items is sent, and before each piece of the join's
    /// half-boards is batched, so the count ends when the running batch does.
    pub fn run_until(
        &self,
        n: u32,
        plan: &Plan,
        ids: &[usize],
        on_task: &mut dyn FnMut(usize, u128),
        cancel: &AtomicBool,
    ) -> Result<Vec<u128>, Error> {
        for &id in ids {
            plan.check_task(id)?;
        }
        if let Plan::Join(plan) = plan {
            return join::run(&self.device, plan, ids, on_task, cancel, self.host_threads);
        }
        let tasks = Tasks::new(n, plan)?;
        work::run(&self.device, &tasks, self.shape, ids, on_task, cancel)
    }
}

/// This process's rank among the MPI ranks of its node, as the launcher says it
/// (`OMPI_COMM_WORLD_LOCAL_RANK` from Open MPI, `MPI_LOCALRANKID` from MPICH, `SLURM_LOCALID`
/// from Slurm's `srun`, the first set), read through `var`; 0 outside MPI.
fn local_rank(var: &dyn Fn(&str) -> Option<String>) -> usize {
    [
        "OMPI_COMM_WORLD_LOCAL_RANK",
        "MPI_LOCALRANKID",
        "SLURM_LOCALID",
    ]
    .iter()
    .find_map(|name| var(name))
    .and_then(|value| value.trim().parse().ok())
    .unwrap_or(0)
}

/// An environment variable's value, if it is set and is text.
fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

impl Gpu {
    /// The time part `part` of task `index` of `plan` takes on this GPU, with the host's work
    /// for it, one after the other (wall-clock time): what `count --estimate` times on a GPU.
    /// The join engine's tasks only: the search's tasks on a GPU are not sampled (an error).
    pub fn time_part(
        &self,
        plan: &Plan,
        index: usize,
        part: usize,
    ) -> Result<std::time::Duration, Error> {
        plan.check_part(index, part)?;
        match plan {
            Plan::Join(plan) => join::time_part(&self.device, plan, index, part),
            _ => Err(Error::Engine(
                "--estimate on a GPU times the join engine's tasks (n = 14 to 28 without \
                 --symmetry); the search's tasks are estimated on the CPU"
                    .into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::has_adapter;
    use super::*;
    use crate::engine::{Engine, Symmetry};

    /// The device, or `None` where there is none and the tests are to be skipped.
    fn gpu() -> Option<Gpu> {
        has_adapter().then(|| Gpu::open(None).unwrap())
    }

    /// The local rank comes from the first launcher variable set; none, or one that is not
    /// a number, is rank 0.
    #[test]
    fn the_local_rank_is_the_launcher_s() {
        let with = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(local_rank(&with(&[])), 0);
        assert_eq!(local_rank(&with(&[("OMPI_COMM_WORLD_LOCAL_RANK", "3")])), 3);
        assert_eq!(local_rank(&with(&[("MPI_LOCALRANKID", "5")])), 5);
        assert_eq!(
            local_rank(&with(&[("SLURM_LOCALID", "7"), ("MPI_LOCALRANKID", "2")])),
            2
        );
        assert_eq!(local_rank(&with(&[("SLURM_LOCALID", "x")])), 0);
    }

    #[test]
    fn a_broken_shader_is_a_one_line_error() {
        if !has_adapter() {
            return;
        }
        let broken = device::SHADERS.search.replace("~free + 1u", "-free");
        let shaders = device::Shaders {
            search: &broken,
            ..device::SHADERS
        };
        let error = Gpu::open_with(None, shaders)
            .err()
            .expect("must not compile");
        let message = error.to_string();
        assert!(matches!(error, Error::Gpu(_)), "{error:?}");
        assert!(message.contains("does not compile"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }

    #[test]
    fn a_destroyed_device_is_an_error_not_a_hang() {
        let Some(gpu) = gpu() else { return };
        let plan = Plan::new(10, Engine::Search(Symmetry::Mirror), 2).unwrap();
        let ids: Vec<usize> = (0..plan.len()).collect();
        gpu.device.destroy();
        let error = gpu.run(10, &plan, &ids, &mut |_, _| {}).unwrap_err();
        assert!(matches!(error, Error::Gpu(_)), "{error:?}");
        assert!(!error.to_string().contains('\n'), "{error}");
    }

    /// Every task of the join engine's plans, counted with its pairs on the device, has the
    /// value the CPU join gives it, from the smallest board the join counts to n = 14, at
    /// two depths; the totals are the known counts.
    #[test]
    fn the_join_s_tasks_have_their_cpu_values() {
        let Some(gpu) = gpu() else { return };
        for n in crate::join::MIN_N..=14 {
            for depth in [1, 3] {
                let plan = Plan::new(n, Engine::Join, depth).unwrap();
                let ids: Vec<usize> = (0..plan.len()).collect();
                let mut reported = vec![None; ids.len()];
                let values = gpu
                    .run(n, &plan, &ids, &mut |id, value| reported[id] = Some(value))
                    .unwrap();
                for (id, &value) in values.iter().enumerate() {
                    assert_eq!(
                        value,
                        plan.run(id).unwrap(),
                        "n {n} depth {depth} task {id}"
                    );
                    assert_eq!(reported[id], Some(value), "n {n} depth {depth} task {id}");
                }
                let total = values.iter().sum::<u128>() / plan.units_per_solution();
                assert_eq!(Some(total), crate::known::total(n), "n {n} depth {depth}");
            }
        }
    }

    /// A software device reads each batch where the host wrote it; made to copy it to a
    /// buffer of its own first, as a GPU with memory of its own does, it gives every task the
    /// CPU's value too, over enough batches that each host thread reuses its buffers (and
    /// grows them).
    #[test]
    fn batches_copied_to_the_device_s_own_buffers_give_the_cpu_values() {
        let Some(mut gpu) = gpu() else { return };
        if gpu.device.is_software() {
            assert!(gpu.device.reads_batches_in_place(), "{}", gpu.device.name());
        }
        gpu.device.copy_batches();
        let gpu = gpu.host_threads(2);
        for (n, depth) in [(13, 1), (16, 2)] {
            let plan = Plan::new(n, Engine::Join, depth).unwrap();
            let ids: Vec<usize> = (0..plan.len()).collect();
            let values = gpu.run(n, &plan, &ids, &mut |_, _| {}).unwrap();
            for (id, &value) in values.iter().enumerate() {
                assert_eq!(value, plan.run(id).unwrap(), "n {n} task {id}");
            }
            let total = values.iter().sum::<u128>() / plan.units_per_solution();
            assert_eq!(Some(total), crate::known::total(n), "n {n}");
        }
    }

    /// Several host threads, each with its own batches, give every task its CPU value and
    /// report each task once.
    #[test]
    fn host_threads_share_the_tasks_and_give_their_cpu_values() {
        let Some(gpu) = gpu() else { return };
        let gpu = gpu.host_threads(3);
        let plan = Plan::new(15, Engine::Join, 3).unwrap();
        let ids: Vec<usize> = (0..plan.len()).rev().step_by(2).collect();
        let mut reported = std::collections::HashMap::new();
        let values = gpu
            .run(15, &plan, &ids, &mut |id, value| {
                assert!(reported.insert(id, value).is_none(), "task {id} twice");
            })
            .unwrap();
        assert_eq!(reported.len(), ids.len());
        for (&id, &value) in ids.iter().zip(&values) {
            assert_eq!(value, plan.run(id).unwrap(), "task {id}");
            assert_eq!(reported[&id], value, "task {id}");
        }
    }

    /// The join counted on a device whose loops stop early (a shader that skips a query, as
    /// lavapipe's loop cap would) is refused with a one-line error, not returned short.
    #[test]
    fn a_pair_count_cut_short_is_refused() {
        if !has_adapter() {
            return;
        }
        let cut = device::SHADERS
            .join
            .replace("done += 1u;", "done += select(1u, 0u, q == 70u);");
        assert_ne!(cut, device::SHADERS.join);
        let shaders = device::Shaders {
            join: &cut,
            ..device::SHADERS
        };
        let gpu = Gpu::open_with(None, shaders).unwrap();
        let plan = Plan::new(15, Engine::Join, 2).unwrap();
        let ids: Vec<usize> = (0..plan.len()).collect();
        let error = gpu.run(15, &plan, &ids, &mut |_, _| {}).unwrap_err();
        let message = error.to_string();
        assert!(message.contains("stopped a pair count"), "{message}");
        assert!(!message.contains('\n'), "{message}");
    }

    #[test]
    fn a_destroyed_device_under_the_join_is_an_error_not_a_hang() {
        let Some(gpu) = gpu() else { return };
        let plan = Plan::new(14, Engine::Join, 2).unwrap();
        let ids: Vec<usize> = (0..plan.len()).collect();
        gpu.device.destroy();
        let error = gpu.run(14, &plan, &ids, &mut |_, _| {}).unwrap_err();
        assert!(matches!(error, Error::Gpu(_)), "{error:?}");
        assert!(!error.to_string().contains('\n'), "{error}");
    }
}
