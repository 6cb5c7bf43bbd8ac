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

impl<T: Zeroable> HugeBuf<T> {
    /// `len` zeroed elements.
    pub fn zeroed(len: usize) -> HugeBuf<T> {
        // at least one element is allocated (a layout must not be empty), but the buffer
        // holds `len`: an empty table must not read a padding element as data
        let bytes = (len.max(1))
            .checked_mul(std::mem::size_of::<T>())
            .expect("table size");
        let align = if bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<T>()
        };
        let layout = std::alloc::Layout::from_size_align(bytes, align).expect("table layout");
        // SAFETY: the layout has a non-zero size (the memory is zeroed below, before use).
        let raw = unsafe { std::alloc::alloc(layout) } as *mut T;
        let Some(ptr) = std::ptr::NonNull::new(raw) else {
            std::alloc::handle_alloc_error(layout)
        };
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
        HugeBuf { ptr, len, layout }
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
