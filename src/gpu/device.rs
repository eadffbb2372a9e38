//! Everything that speaks wgpu: finding adapters, opening a device, compiling the search
//! shader, and one dispatch of items with its readback. Every failure becomes an
//! [`Error::Gpu`] of one line; every wait has a time limit, so a lost or stuck device is an
//! error, never a hang.

use super::adapter::AdapterInfo;
use super::layout::{Item, JoinItem, JoinRun, Rule};
use crate::error::Error;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The shaders: the search, and the join engine's pair count.
pub(crate) const SHADERS: Shaders = Shaders {
    search: include_str!("search.wgsl"),
    join: include_str!("join.wgsl"),
};

/// The WGSL source of each shader (tests pass broken ones).
#[derive(Clone, Copy)]
pub(crate) struct Shaders<'s> {
    pub(crate) search: &'s str,
    pub(crate) join: &'s str,
}

/// Invocations per workgroup (the shader's `@workgroup_size`).
const WORKGROUP: u32 = 64;

/// The longest wait for one dispatch: far beyond what a bounded batch takes on any device
/// (lavapipe on two cores takes well under a second), short of looking hung.
const DISPATCH_TIMEOUT: Duration = Duration::from_secs(300);

/// The instance over every backend this build has (Vulkan; Metal, DX12 where they exist).
fn instance() -> wgpu::Instance {
    wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle_from_env())
}

/// The adapters found, best first (discrete, integrated, virtual, software, other).
pub(crate) fn adapters() -> Vec<(AdapterInfo, wgpu::Adapter)> {
    let mut found: Vec<(AdapterInfo, wgpu::Adapter)> =
        pollster::block_on(instance().enumerate_adapters(wgpu::Backends::all()))
            .into_iter()
            .map(|adapter| (describe(&adapter.get_info()), adapter))
            .collect();
    found.sort_by_key(|(info, _)| rank(&info.device_type));
    found
}

fn describe(info: &wgpu::AdapterInfo) -> AdapterInfo {
    let device_type = match info.device_type {
        wgpu::DeviceType::DiscreteGpu => "discrete",
        wgpu::DeviceType::IntegratedGpu => "integrated",
        wgpu::DeviceType::VirtualGpu => "virtual",
        wgpu::DeviceType::Cpu => "cpu",
        wgpu::DeviceType::Other => "other",
    };
    AdapterInfo {
        name: info.name.clone(),
        backend: info.backend.to_str().to_string(),
        device_type: device_type.to_string(),
        driver: format!("{} {}", info.driver, info.driver_info)
            .trim()
            .to_string(),
    }
}

fn rank(device_type: &str) -> usize {
    ["discrete", "integrated", "virtual", "cpu"]
        .iter()
        .position(|&t| t == device_type)
        .unwrap_or(4)
}

/// An open device with the search compiled for it.
pub(crate) struct Device {
    info: AdapterInfo,
    device: wgpu::Device,
    queue: wgpu::Queue,
    /// The search, and the join engine's pair count.
    pipeline: wgpu::ComputePipeline,
    join: wgpu::ComputePipeline,
    /// The first error the device reported outside an error scope (a lost device included).
    trouble: Arc<Mutex<Option<String>>>,
}

/// A dispatch on its way: the buffer its results will be read from.
pub(crate) struct Submitted {
    staging: wgpu::Buffer,
    items: usize,
    /// The submission, so that a wait waits for this dispatch, not for later ones.
    index: wgpu::SubmissionIndex,
}

impl Device {
    /// Opens `adapter` and compiles the `shaders`.
    pub(crate) fn open(
        info: AdapterInfo,
        adapter: &wgpu::Adapter,
        shaders: Shaders,
    ) -> Result<Device, Error> {
        let name = info.name.clone();
        let fail = move |what: &str, detail: &dyn std::fmt::Display| {
            Error::Gpu(format!("{what} on {name}: {}", first_line(detail)))
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("nqueens"),
            required_limits: adapter.limits(),
            ..Default::default()
        }))
        .map_err(|e| fail("cannot open the device", &e))?;
        let trouble = Arc::new(Mutex::new(None));
        let keep = |trouble: &Arc<Mutex<Option<String>>>, message: String| {
            let mut slot = trouble.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert(message);
        };
        let lost = Arc::clone(&trouble);
        device.set_device_lost_callback(move |reason, message| {
            keep(
                &lost,
                format!("the device was lost ({reason:?}): {message}"),
            );
        });
        let uncaptured = Arc::clone(&trouble);
        // wgpu's default handler panics; the library reports instead.
        device.on_uncaptured_error(Arc::new(move |error: wgpu::Error| {
            keep(&uncaptured, error.to_string());
        }));

        let compile = |label: &str, source: &str| {
            let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
            let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
                label: Some(label),
                source: wgpu::ShaderSource::Wgsl(source.into()),
            });
            let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(label),
                layout: None,
                module: &module,
                entry_point: Some("main"),
                compilation_options: Default::default(),
                cache: None,
            });
            match pollster::block_on(scope.pop()) {
                Some(error) => Err(fail(
                    &format!("the {label} shader does not compile"),
                    &error,
                )),
                None => Ok(pipeline),
            }
        };
        let pipeline = compile("search", shaders.search)?;
        let join = compile("join", shaders.join)?;
        let device = Device {
            info,
            device,
            queue,
            pipeline,
            join,
            trouble,
        };
        device.check()?;
        Ok(device)
    }

    /// The adapter's description.
    pub(crate) fn info(&self) -> &AdapterInfo {
        &self.info
    }

    /// The adapter's name.
    pub(crate) fn name(&self) -> &str {
        &self.info.name
    }

    /// Whether this is a software device (lavapipe, SwiftShader): no watchdog, but loop caps.
    pub(crate) fn is_software(&self) -> bool {
        self.info.device_type == "cpu"
    }

    /// The rule table in device memory.
    pub(crate) fn rules_buffer(&self, rules: &[Rule]) -> Result<wgpu::Buffer, Error> {
        // An empty binding is not allowed: a plan without tasks still binds one rule.
        let fallback = [<Rule as bytemuck::Zeroable>::zeroed()];
        let rules = if rules.is_empty() {
            &fallback[..]
        } else {
            rules
        };
        self.upload(
            "nqueens rules",
            bytemuck::cast_slice(rules),
            wgpu::BufferUsages::STORAGE,
        )
    }

    /// A buffer holding `bytes`. Not `create_buffer_init`, which panics on a lost device.
    fn upload(
        &self,
        label: &str,
        bytes: &[u8],
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, Error> {
        self.check()?;
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.len() as u64,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        self.queue.write_buffer(&buffer, 0, bytes);
        Ok(buffer)
    }

    /// Starts the search of `items` (at least one) on the n x n board, each invocation
    /// allowed `budget` loop iterations.
    pub(crate) fn submit(
        &self,
        n: u32,
        budget: u32,
        items: &[Item],
        rules: &wgpu::Buffer,
    ) -> Result<Submitted, Error> {
        self.check()?;
        let count = items.len() as u32;
        let (groups_x, groups_y) = self.grid(count.div_ceil(WORKGROUP));
        let params = [count, budget, n, groups_x * WORKGROUP];
        let input = self.upload(
            "nqueens items",
            bytemuck::cast_slice(items),
            wgpu::BufferUsages::STORAGE,
        )?;
        self.dispatch(
            &self.pipeline,
            params,
            &[&input, rules],
            (groups_x, groups_y),
            items.len(),
        )
    }

    /// Starts the pair count of `items` (at least one), one workgroup each, over their
    /// `runs` of queries, the groups' `tables` and the queries' `rows` (`join.wgsl`).
    pub(crate) fn submit_join(
        &self,
        items: &[JoinItem],
        runs: &[JoinRun],
        tables: &[u32],
        rows: &[u32],
    ) -> Result<Submitted, Error> {
        self.check()?;
        let count = items.len() as u32;
        let (groups_x, groups_y) = self.grid(count);
        let storage = wgpu::BufferUsages::STORAGE;
        let items_buffer =
            self.upload("nqueens join items", bytemuck::cast_slice(items), storage)?;
        let runs = self.upload("nqueens join runs", bytemuck::cast_slice(runs), storage)?;
        let tables = self.upload("nqueens join tables", bytemuck::cast_slice(tables), storage)?;
        let rows = self.upload("nqueens join rows", bytemuck::cast_slice(rows), storage)?;
        self.dispatch(
            &self.join,
            [count, groups_x, 0, 0],
            &[&items_buffer, &runs, &tables, &rows],
            (groups_x, groups_y),
            items.len(),
        )
    }

    /// The most bytes one storage binding may hold on this device.
    pub(crate) fn binding_bytes(&self) -> u64 {
        let limits = self.device.limits();
        limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size)
    }

    /// A grid of `groups` workgroups: one row, or rows of the most a dimension allows.
    fn grid(&self, groups: u32) -> (u32, u32) {
        let max_groups = self
            .device
            .limits()
            .max_compute_workgroups_per_dimension
            .max(1);
        if groups <= max_groups {
            (groups, 1)
        } else {
            (max_groups, groups.div_ceil(max_groups))
        }
    }

    /// Runs `pipeline` on a `grid` of workgroups with `params` as its uniform (binding 0),
    /// `inputs` as bindings 1.., and a result of two words per item (the binding after them),
    /// copied to a buffer to read back.
    fn dispatch(
        &self,
        pipeline: &wgpu::ComputePipeline,
        params: [u32; 4],
        inputs: &[&wgpu::Buffer],
        (groups_x, groups_y): (u32, u32),
        items: usize,
    ) -> Result<Submitted, Error> {
        let uniform = self.upload(
            "nqueens params",
            bytemuck::cast_slice(&params),
            wgpu::BufferUsages::UNIFORM,
        )?;
        let size = items as u64 * 8;
        let output = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("nqueens results"),
            size,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let staging = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("nqueens readback"),
            size,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut entries = vec![entry(0, &uniform)];
        entries.extend(
            (1..)
                .zip(inputs)
                .map(|(binding, buffer)| entry(binding, buffer)),
        );
        entries.push(entry(inputs.len() as u32 + 1, &output));
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("nqueens bindings"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(groups_x, groups_y, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &staging, 0, size);
        let index = self.queue.submit([encoder.finish()]);
        Ok(Submitted {
            staging,
            items,
            index,
        })
    }

    /// Waits for a dispatch and returns (value, status) per item.
    pub(crate) fn wait(&self, submitted: Submitted) -> Result<Vec<[u32; 2]>, Error> {
        let mapped = Arc::new(Mutex::new(None));
        let done = Arc::clone(&mapped);
        submitted
            .staging
            .slice(..)
            .map_async(wgpu::MapMode::Read, move |result| {
                *done.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
            });
        let started = std::time::Instant::now();
        let polled = self.device.poll(wgpu::PollType::Wait {
            submission_index: Some(submitted.index.clone()),
            timeout: Some(DISPATCH_TIMEOUT),
        });
        self.check()?;
        if let Err(error) = polled {
            return Err(Error::Gpu(format!(
                "{} did not finish a batch: {}",
                self.name(),
                first_line(&error)
            )));
        }
        // The mapping's callback runs on whichever thread polls the device: with several
        // host threads it may come a moment after this one's wait has returned.
        while mapped.lock().unwrap_or_else(|e| e.into_inner()).is_none()
            && started.elapsed() < DISPATCH_TIMEOUT
        {
            std::thread::sleep(Duration::from_micros(100));
            let _ = self.device.poll(wgpu::PollType::Poll);
        }
        match mapped.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(Ok(())) => {}
            Some(Err(error)) => {
                return Err(Error::Gpu(format!(
                    "cannot read the results back from {}: {}",
                    self.name(),
                    first_line(&error)
                )));
            }
            None => {
                return Err(Error::Gpu(format!(
                    "{} finished a batch but its results never arrived",
                    self.name()
                )));
            }
        }
        let view = submitted
            .staging
            .slice(..)
            .get_mapped_range()
            .map_err(|e| Error::Gpu(format!("cannot read the results back: {}", first_line(&e))))?;
        let results: Vec<[u32; 2]> = bytemuck::cast_slice(&view).to_vec();
        drop(view);
        submitted.staging.unmap();
        debug_assert_eq!(results.len(), submitted.items);
        Ok(results)
    }

    /// The error the device reported on its own, if any.
    fn check(&self) -> Result<(), Error> {
        match self
            .trouble
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            Some(message) => Err(Error::Gpu(format!(
                "{}: {}",
                self.name(),
                first_line(message)
            ))),
            None => Ok(()),
        }
    }

    /// Destroys the device, as a driver crash would; for the tests of the error paths.
    #[cfg(test)]
    pub(crate) fn destroy(&self) {
        self.device.destroy();
    }
}

fn entry(binding: u32, buffer: &wgpu::Buffer) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry {
        binding,
        resource: buffer.as_entire_binding(),
    }
}

/// The first non-empty line of a message, trimmed: errors are one line.
fn first_line(message: &dyn std::fmt::Display) -> String {
    let text = message.to_string();
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("unknown error").to_string();
    // wgpu's validation errors name the failing call first and the cause after it.
    match lines.next_back() {
        Some(cause) if cause != first => format!("{first} {cause}"),
        _ => first,
    }
}
