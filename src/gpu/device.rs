//! Everything that speaks wgpu: finding adapters, opening a device, compiling the search
//! shader, and one dispatch of items with its readback (the join's through buffers kept from
//! one batch to the next). Every failure becomes an
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
    /// Whether the shader reads a batch from the buffer the host wrote it to (memory
    /// shared with the host), rather than from the device's copy of it.
    direct: bool,
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
        // Where the device's memory is the host's (lavapipe, integrated GPUs), the shader
        // reads the batch where the host wrote it: no second copy of it.
        let shared = wgpu::Features::MAPPABLE_PRIMARY_BUFFERS;
        let direct = matches!(info.device_type.as_str(), "cpu" | "integrated")
            && adapter.features().contains(shared);
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("nqueens"),
            required_limits: adapter.limits(),
            required_features: if direct {
                shared
            } else {
                wgpu::Features::empty()
            },
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
            direct,
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
        let buffer = self.buffer(
            label,
            bytes.len() as u64,
            usage | wgpu::BufferUsages::COPY_DST,
        )?;
        self.queue.write_buffer(&buffer, 0, bytes);
        Ok(buffer)
    }

    /// A new buffer of `size` bytes.
    fn buffer(
        &self,
        label: &str,
        size: u64,
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, Error> {
        self.check()?;
        Ok(self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage,
            mapped_at_creation: false,
        }))
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
        let encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        self.dispatch(
            encoder,
            &self.pipeline,
            params,
            &[input.as_entire_binding(), rules.as_entire_binding()],
            (groups_x, groups_y),
            &mut Results::default(),
        )
    }

    /// Starts the pair count of `items` (at least one), one workgroup each, over their
    /// `runs` of queries, the groups' `tables` and the queries' `rests` (`join.wgsl`).
    pub(crate) fn submit_join(
        &self,
        kept: &mut JoinBuffers,
        items: &[JoinItem],
        runs: &[JoinRun],
        tables: &[u32],
        rests: &[u32],
    ) -> Result<Submitted, Error> {
        self.check()?;
        let count = items.len() as u32;
        let (groups_x, groups_y) = self.grid(count);
        // The four arrays end to end, each where a binding may start.
        let align = u64::from(self.device.limits().min_storage_buffer_offset_alignment).max(4);
        let sections: [&[u8]; 4] = [
            bytemuck::cast_slice(items),
            bytemuck::cast_slice(runs),
            bytemuck::cast_slice(tables),
            bytemuck::cast_slice(rests),
        ];
        let mut offsets = [0u64; 4];
        let mut end = 0u64;
        for (offset, section) in offsets.iter_mut().zip(sections) {
            *offset = end.next_multiple_of(align);
            end = *offset + section.len() as u64;
        }
        let usage = if self.direct { SHARED } else { UPLOAD };
        let upload = kept.upload.get(self, "nqueens join upload", end, usage)?;
        // The upload buffer's last dispatch has been waited for: it maps at once.
        let slice = upload.slice(..end);
        self.map(slice, wgpu::MapMode::Write, None)?;
        {
            let mut view = slice.get_mapped_range_mut().map_err(|e| {
                Error::Gpu(format!(
                    "cannot write a batch to {}: {}",
                    self.name(),
                    first_line(&e)
                ))
            })?;
            for (&offset, section) in offsets.iter().zip(sections) {
                let at = offset as usize;
                view.slice(at..at + section.len()).copy_from_slice(section);
            }
        }
        upload.unmap();
        let mut encoder = self
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
        let input = if self.direct {
            upload
        } else {
            let input = kept.input.get(self, "nqueens join input", end, INPUT)?;
            encoder.copy_buffer_to_buffer(&upload, 0, &input, 0, end);
            input
        };
        let bindings: Vec<wgpu::BindingResource> = offsets
            .iter()
            .zip(sections)
            .map(|(&offset, section)| {
                wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                    buffer: &input,
                    offset,
                    size: wgpu::BufferSize::new(section.len() as u64),
                })
            })
            .collect();
        self.dispatch(
            encoder,
            &self.join,
            [count, groups_x, 0, 0],
            &bindings,
            (groups_x, groups_y),
            &mut kept.results,
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

    /// Records into `encoder` a run of `pipeline` on a `grid` of workgroups with `params` as
    /// its uniform (binding 0), `inputs` as bindings 1.., and a result of two words per item
    /// (the binding after them, in `results`), copied to `results`' buffer to read back;
    /// submits it.
    fn dispatch(
        &self,
        mut encoder: wgpu::CommandEncoder,
        pipeline: &wgpu::ComputePipeline,
        params: [u32; 4],
        inputs: &[wgpu::BindingResource],
        (groups_x, groups_y): (u32, u32),
        results: &mut Results,
    ) -> Result<Submitted, Error> {
        let uniform = self.upload(
            "nqueens params",
            bytemuck::cast_slice(&params),
            wgpu::BufferUsages::UNIFORM,
        )?;
        let items = params[0] as usize;
        let size = items as u64 * 8;
        let output = results.output.get(self, "nqueens results", size, OUTPUT)?;
        let readback = results
            .readback
            .get(self, "nqueens readback", size, READBACK)?;
        let mut entries = vec![entry(0, uniform.as_entire_binding())];
        entries.extend(
            (1..)
                .zip(inputs)
                .map(|(binding, resource)| entry(binding, resource.clone())),
        );
        entries.push(entry(
            inputs.len() as u32 + 1,
            wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &output,
                offset: 0,
                size: wgpu::BufferSize::new(size),
            }),
        ));
        let bind_group = self.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("nqueens bindings"),
            layout: &pipeline.get_bind_group_layout(0),
            entries: &entries,
        });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &bind_group, &[]);
            pass.dispatch_workgroups(groups_x, groups_y, 1);
        }
        encoder.copy_buffer_to_buffer(&output, 0, &readback, 0, size);
        let index = self.queue.submit([encoder.finish()]);
        Ok(Submitted {
            staging: readback,
            items,
            index,
        })
    }

    /// Maps `slice` for `mode` and waits until it is: for the submission `index` first, if
    /// any (up to [`DISPATCH_TIMEOUT`]), else for the device to take the request.
    fn map(
        &self,
        slice: wgpu::BufferSlice,
        mode: wgpu::MapMode,
        index: Option<&wgpu::SubmissionIndex>,
    ) -> Result<(), Error> {
        let mapped = Arc::new(Mutex::new(None));
        let done = Arc::clone(&mapped);
        slice.map_async(mode, move |result| {
            *done.lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
        });
        let started = std::time::Instant::now();
        if let Some(index) = index {
            let polled = self.device.poll(wgpu::PollType::Wait {
                submission_index: Some(index.clone()),
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
        }
        // The mapping's callback runs on whichever thread polls the device: with several
        // host threads it may come a moment after this one's wait has returned.
        let _ = self.device.poll(wgpu::PollType::Poll);
        while mapped.lock().unwrap_or_else(|e| e.into_inner()).is_none()
            && started.elapsed() < DISPATCH_TIMEOUT
        {
            std::thread::sleep(Duration::from_micros(100));
            let _ = self.device.poll(wgpu::PollType::Poll);
        }
        self.check()?;
        match mapped.lock().unwrap_or_else(|e| e.into_inner()).take() {
            Some(Ok(())) => Ok(()),
            Some(Err(error)) => Err(Error::Gpu(format!(
                "cannot map a buffer of {}: {}",
                self.name(),
                first_line(&error)
            ))),
            None => Err(Error::Gpu(format!(
                "{} finished a batch but its buffer never mapped",
                self.name()
            ))),
        }
    }

    /// Waits for a dispatch and returns (value, status) per item.
    pub(crate) fn wait(&self, submitted: Submitted) -> Result<Vec<[u32; 2]>, Error> {
        let slice = submitted.staging.slice(..submitted.items as u64 * 8);
        self.map(slice, wgpu::MapMode::Read, Some(&submitted.index))?;
        let view = slice
            .get_mapped_range()
            .map_err(|e| Error::Gpu(format!("cannot read the results back: {}", first_line(&e))))?;
        let results: Vec<[u32; 2]> = bytemuck::cast_slice(&view).to_vec();
        drop(view);
        submitted.staging.unmap();
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

    /// Whether the shader reads each batch where the host wrote it.
    #[cfg(test)]
    pub(crate) fn reads_batches_in_place(&self) -> bool {
        self.direct
    }

    /// Makes the device copy each batch to a buffer of its own first, as on a GPU with
    /// memory of its own: the tests take that path on a software device too.
    #[cfg(test)]
    pub(crate) fn copy_batches(&mut self) {
        self.direct = false;
    }

    /// Destroys the device, as a driver crash would; for the tests of the error paths.
    #[cfg(test)]
    pub(crate) fn destroy(&self) {
        self.device.destroy();
    }
}

fn entry(binding: u32, resource: wgpu::BindingResource<'_>) -> wgpu::BindGroupEntry<'_> {
    wgpu::BindGroupEntry { binding, resource }
}

/// The usages of the kept buffers: the batch as the host writes it, the device's copy the
/// shader reads, the shader's results, and the copy of them the host reads.
const UPLOAD: wgpu::BufferUsages =
    wgpu::BufferUsages::MAP_WRITE.union(wgpu::BufferUsages::COPY_SRC);
const SHARED: wgpu::BufferUsages = wgpu::BufferUsages::MAP_WRITE.union(wgpu::BufferUsages::STORAGE);
const INPUT: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE.union(wgpu::BufferUsages::COPY_DST);
const OUTPUT: wgpu::BufferUsages = wgpu::BufferUsages::STORAGE.union(wgpu::BufferUsages::COPY_SRC);
const READBACK: wgpu::BufferUsages =
    wgpu::BufferUsages::MAP_READ.union(wgpu::BufferUsages::COPY_DST);

/// A buffer kept from one dispatch to the next and grown when a dispatch needs more. A
/// fresh buffer per dispatch costs the first touch of all its pages, on the host and (on
/// lavapipe, whose memory is the host's) again on the device: at n = 16 that was a fifth
/// of the GPU join's processor time.
#[derive(Default)]
pub(crate) struct Kept(Option<wgpu::Buffer>);

impl Kept {
    /// The buffer, of at least `size` bytes; a new one, with room to spare, if the kept one
    /// is smaller.
    fn get(
        &mut self,
        device: &Device,
        label: &str,
        size: u64,
        usage: wgpu::BufferUsages,
    ) -> Result<wgpu::Buffer, Error> {
        match &self.0 {
            Some(buffer) if buffer.size() >= size => Ok(buffer.clone()),
            _ => {
                // A quarter to spare, in whole pages: batches vary a little in size.
                let room = (size + size / 4).next_multiple_of(4096).max(4096);
                let buffer = device.buffer(label, room, usage)?;
                self.0 = Some(buffer.clone());
                Ok(buffer)
            }
        }
    }
}

/// The buffers a dispatch's results go through.
#[derive(Default)]
pub(crate) struct Results {
    output: Kept,
    readback: Kept,
}

/// The buffers of one join dispatch, kept for the next one. A host thread keeps two, one
/// for the dispatch in flight and one for the batch it sends next.
#[derive(Default)]
pub(crate) struct JoinBuffers {
    upload: Kept,
    input: Kept,
    results: Results,
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

/// Whether the machine has an adapter, for tests (the crate's and `tests/gpu.rs`, which
/// call this one through [`super::has_adapter`]); without one, a failure that says what to
/// install, or `false` where `NQUEENS_SKIP_GPU=1` asks to skip.
pub fn has_adapter() -> bool {
    if !adapters().is_empty() {
        return true;
    }
    let message = "no GPU adapter: apt-get install libvulkan1 mesa-vulkan-drivers, or set \
                   NQUEENS_SKIP_GPU=1 to skip the GPU tests";
    if std::env::var_os("NQUEENS_SKIP_GPU").is_some_and(|v| v == "1") {
        println!("SKIPPED: {message}");
        return false;
    }
    panic!("{message}");
}

/// The first adapter's device, for tests; `None` where [`has_adapter`] says to skip.
#[cfg(test)]
pub(crate) fn test_device() -> Option<Device> {
    if !has_adapter() {
        return None;
    }
    let (info, adapter) = adapters().into_iter().next()?;
    Some(Device::open(info, &adapter, SHADERS).unwrap())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A kept buffer serves every dispatch that fits it, and is replaced, with room to
    /// spare, by one that fits a larger one.
    #[test]
    fn a_kept_buffer_is_reused_until_a_batch_outgrows_it() {
        let Some(device) = test_device() else { return };
        let mut kept = Kept::default();
        let first = kept.get(&device, "test", 10_000, INPUT).unwrap();
        assert!(first.size() >= 12_500, "{}", first.size());
        assert_eq!(kept.get(&device, "test", 12_000, INPUT).unwrap(), first);
        assert_eq!(kept.get(&device, "test", 4, INPUT).unwrap(), first);
        let larger = kept.get(&device, "test", first.size() + 1, INPUT).unwrap();
        assert_ne!(larger, first);
        assert!(larger.size() > first.size() + first.size() / 8);
        assert_eq!(
            kept.get(&device, "test", first.size(), INPUT).unwrap(),
            larger
        );
    }
}
