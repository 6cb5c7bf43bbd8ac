//! Large zeroed buffers aligned to 2 MB, so that Linux can back them with huge pages (asked
//! for with `madvise` before the first touch): the transposition table and the endgame
//! lookup tables are probed at random, and with 4 KB pages most probes would also miss the
//! TLB.

/// Element types whose all-zero bit pattern is a valid value.
///
/// # Safety
/// An all-zero `T` must be a valid, initialised value.
pub unsafe trait Zeroable: Copy {}

// SAFETY: integers are valid at zero.
unsafe impl Zeroable for u32 {}
// SAFETY: as above.
unsafe impl Zeroable for u8 {}

/// A fixed-length buffer of zeroed `T` (see the module documentation).
pub struct HugeBuf<T: Zeroable> {
    ptr: std::ptr::NonNull<T>,
    len: usize,
    layout: std::alloc::Layout,
}

// SAFETY: `HugeBuf` owns its allocation exclusively, like a `Box<[T]>`.
unsafe impl<T: Zeroable + Send> Send for HugeBuf<T> {}
unsafe impl<T: Zeroable + Sync> Sync for HugeBuf<T> {}

const HUGE_PAGE: usize = 2 << 20;

/// A table that cannot be allocated: its size does not fit the address space, exceeds the
/// machine's memory, or the allocator refused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError;

/// The memory a new table can have now, in bytes, where the platform reports it: on Linux the
/// kernel's estimate of the memory available without swapping (`MemAvailable`) plus free
/// swap, else physical memory plus swap. A table larger than this would be zeroed into memory
/// that is not there and meet the out-of-memory killer, so none is allocated.
pub fn memory_limit() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        if let Some(bytes) = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|text| available_bytes(&text))
        {
            return Some(bytes);
        }
    }
    total_memory()
}

/// The machine's physical memory plus swap in bytes, where the platform reports it.
fn total_memory() -> Option<usize> {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `sysinfo` only writes the struct it is given (all-zero is a valid value).
        let mut info: libc::sysinfo = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, writable `sysinfo` struct.
        if unsafe { libc::sysinfo(&mut info) } == 0 {
            let units =
                (info.totalram as u128 + info.totalswap as u128) * info.mem_unit.max(1) as u128;
            return Some(usize::try_from(units).unwrap_or(usize::MAX));
        }
    }
    None
}

/// `MemAvailable` plus `SwapFree` of a `/proc/meminfo` text, in bytes (None without
/// `MemAvailable`, which kernels before 3.14 lack; no swap line counts as no swap).
fn available_bytes(meminfo: &str) -> Option<usize> {
    let kb = |key: &str| {
        meminfo.lines().find_map(|line| {
            let rest = line.strip_prefix(key)?.strip_prefix(':')?;
            rest.split_whitespace().next()?.parse::<u128>().ok()
        })
    };
    let total = (kb("MemAvailable")? + kb("SwapFree").unwrap_or(0)) * 1024;
    Some(usize::try_from(total).unwrap_or(usize::MAX))
}

/// Whether `count` tables of `bytes` each may be allocated: their total is representable and
/// within [`memory_limit`].
pub fn fits_in_memory(bytes: usize, count: usize) -> bool {
    fits_within(bytes, count, memory_limit())
}

/// Whether `count` tables of `bytes` each fit in `limit` bytes (any size when the limit is
/// unknown, as long as the total is representable).
fn fits_within(bytes: usize, count: usize, limit: Option<usize>) -> bool {
    match bytes.checked_mul(count) {
        Some(total) => limit.is_none_or(|limit| total <= limit),
        None => false,
    }
}

impl<T: Zeroable> HugeBuf<T> {
    /// `len` zeroed elements.
    ///
    /// # Panics
    /// If the buffer cannot be allocated (see [`HugeBuf::try_zeroed`]).
    pub fn zeroed(len: usize) -> HugeBuf<T> {
        match HugeBuf::try_zeroed(len) {
            Ok(b) => b,
            Err(AllocError) => panic!("cannot allocate a table of {len} elements"),
        }
    }

    /// `len` zeroed elements, or [`AllocError`] when the size overflows, exceeds
    /// [`memory_limit`] or the allocator refuses it (nothing is allocated then).
    pub fn try_zeroed(len: usize) -> Result<HugeBuf<T>, AllocError> {
        // at least one element is allocated (a layout must not be empty), but the buffer
        // holds `len`: an empty table must not read a padding element as data
        let bytes = (len.max(1))
            .checked_mul(std::mem::size_of::<T>())
            .ok_or(AllocError)?;
        if !fits_in_memory(bytes, 1) {
            return Err(AllocError);
        }
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = std::alloc::Layout::from_size_align(bytes, align).map_err(|_| AllocError)?;
        // SAFETY: the layout has a non-zero size (the memory is zeroed below, before use).
        let raw = unsafe { std::alloc::alloc(layout) } as *mut T;
        let ptr = std::ptr::NonNull::new(raw).ok_or(AllocError)?;
        #[cfg(target_os = "linux")]
        if align == HUGE_PAGE {
            // SAFETY: the range is the allocation just made; the advice changes no contents.
            unsafe {
                libc::madvise(raw as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            }
        }
        // Zeroed after the advice, so that the first touch of each 2 MB range can fault in a
        // huge page (`alloc_zeroed` would touch every page first, as 4 KB pages).
        // SAFETY: the range is the allocation just made; an all-zero `T` is a valid value
        // (the `Zeroable` contract).
        unsafe { std::ptr::write_bytes(raw as *mut u8, 0, bytes) };
        Ok(HugeBuf { ptr, len, layout })
    }
}

impl<T: Zeroable> std::ops::Deref for HugeBuf<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised elements owned by `self`.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> std::ops::DerefMut for HugeBuf<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for HugeBuf<T> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_beyond_the_address_space_or_the_memory_are_refused() {
        assert_eq!(
            HugeBuf::<u32>::try_zeroed(usize::MAX).err(),
            Some(AllocError)
        );
        assert_eq!(
            HugeBuf::<u32>::try_zeroed(usize::MAX / 4).err(),
            Some(AllocError)
        );
        assert!(!fits_in_memory(usize::MAX, 2));
        assert!(fits_within(10, 1, Some(10)));
        assert!(!fits_within(6, 2, Some(11)));
        assert!(fits_within(usize::MAX / 2, 2, None));
        assert!(!fits_within(usize::MAX / 2 + 1, 2, None));
        if let Some(limit) = memory_limit() {
            // the limit moves with other processes: twice it is out of reach all the same
            let len = limit.saturating_mul(2);
            assert_eq!(HugeBuf::<u8>::try_zeroed(len).err(), Some(AllocError));
        }
    }

    #[test]
    fn the_limit_is_the_available_memory_plus_free_swap() {
        let text = "MemTotal:       24684544 kB\nMemFree:        21784208 kB\n\
                    MemAvailable:   24127504 kB\nSwapTotal:       2097148 kB\n\
                    SwapFree:        1048576 kB\n";
        assert_eq!(available_bytes(text), Some((24127504 + 1048576) * 1024));
        let no_swap = "MemAvailable:   1000 kB\nMemFree: 5 kB\n";
        assert_eq!(available_bytes(no_swap), Some(1000 * 1024));
        assert_eq!(
            available_bytes("MemTotal: 1000 kB\nMemFree: 900 kB\n"),
            None
        );
        assert_eq!(available_bytes("MemAvailableX: 1 kB\n"), None);
        #[cfg(target_os = "linux")]
        {
            // on Linux the limit is at most the machine's physical memory plus swap
            let total = total_memory().expect("Linux reports its memory");
            let limit = memory_limit().expect("Linux reports its memory");
            assert!(limit <= total, "{limit} > {total}");
        }
    }

    #[test]
    fn a_small_buffer_is_zeroed() {
        let b = HugeBuf::<u32>::try_zeroed(10).unwrap();
        assert_eq!(b.len(), 10);
        assert!(b.iter().all(|&x| x == 0));
    }
}
