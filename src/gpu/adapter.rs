//! What the system says of a GPU adapter: the one type the folder's files share with its
//! users ([`crate::gpu::adapters`] lists them, the device keeps the one it opened), in a file
//! of its own so that `device.rs` takes it from here, not from the `mod.rs` that uses it.

/// A GPU adapter as the system reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdapterInfo {
    /// The adapter's name, e.g. `NVIDIA H200` or `llvmpipe (LLVM 15.0.6, 256 bits)`.
    pub name: String,
    /// The API wgpu reaches it through: `vulkan`, `metal`, `dx12`.
    pub backend: String,
    /// `discrete`, `integrated`, `virtual`, `cpu` (a software implementation) or `other`.
    pub device_type: String,
    /// The driver's name and version, as far as the system says.
    pub driver: String,
}
