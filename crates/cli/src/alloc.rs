//! Allocator settings for a scan (glibc only).
//!
//! A scan allocates and frees many large buffers of varying size (reports of documents, compacted
//! candidate lists, hash tables). glibc's malloc raises its mmap threshold dynamically after such
//! frees, so later large buffers come from the heap, and freed heap memory is returned to the system
//! only from its top: the process keeps a high-water mark far above what it uses. Fixing the mmap
//! and trim thresholds at 128 KiB (glibc's initial values) makes large buffers separate mappings
//! that go back to the system when freed. Measured on the 2,000-origin benchmark
//! (`docs/benchmarks/scan.md`): peak RSS about a fifth lower, time unchanged within noise. The
//! number of arenas is capped at two (`M_ARENA_MAX`).

/// Applies the settings (no-op outside glibc).
pub fn tune_for_scan() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        const THRESHOLD: i32 = 128 * 1024;
        // SAFETY: mallopt (glibc, malloc.h, bound by the `libc` crate) only changes allocator tuning
        // parameters; it is thread-safe and may be called at any time. A failure (return 0) leaves
        // the defaults, which is harmless.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD);
            libc::mallopt(libc::M_TRIM_THRESHOLD, THRESHOLD);
            // Two arenas: the runtime's worker threads and the store writer allocate and free
            // buffers the others made; more arenas (glibc allows 8 per core) each keep their own
            // high-water mark. Measured on the 1,000-origin latency benchmark.
            libc::mallopt(libc::M_ARENA_MAX, 2);
        }
    }
}
