//! libstdc++'s `std::sort`, step for step: the sparse runtime library
//! sorts COO coordinates with it, and the order it leaves equal elements
//! in is what a program observes (the runtime's storage, the sparsifier's
//! conversions). A leaf module: plain slices, no engine types.

/// libstdc++'s `std::sort`: introsort (median-of-three pivot, Hoare
/// partition, heap sort past depth 2 log n) down to runs of 16, then one
/// insertion sort. Reproduced step for step because the order of equal
/// elements is what the runtime's output shows.
pub fn std_sort<T: Clone>(v: &mut [T], less: &dyn Fn(&T, &T) -> bool) {
    let n = v.len();
    if n < 2 {
        return;
    }
    let depth = 2 * (usize::BITS - 1 - n.leading_zeros()) as usize;
    introsort(v, 0, n, depth, less);
    if n > 16 {
        insertion_sort(v, 0, 16, less);
        for i in 16..n {
            unguarded_linear_insert(v, i, less);
        }
    } else {
        insertion_sort(v, 0, n, less);
    }
}

fn introsort<T: Clone>(v: &mut [T], first: usize, mut last: usize, mut depth: usize, less: &dyn Fn(&T, &T) -> bool) {
    while last - first > 16 {
        if depth == 0 {
            heap_sort(&mut v[first..last], less);
            return;
        }
        depth -= 1;
        let mid = first + (last - first) / 2;
        median_to_first(v, first, first + 1, mid, last - 1, less);
        let cut = partition(v, first + 1, last, first, less);
        introsort(v, cut, last, depth, less);
        last = cut;
    }
}

fn median_to_first<T>(v: &mut [T], r: usize, a: usize, b: usize, c: usize, less: &dyn Fn(&T, &T) -> bool) {
    let pick = if less(&v[a], &v[b]) {
        if less(&v[b], &v[c]) {
            b
        } else if less(&v[a], &v[c]) {
            c
        } else {
            a
        }
    } else if less(&v[a], &v[c]) {
        a
    } else if less(&v[b], &v[c]) {
        c
    } else {
        b
    };
    v.swap(r, pick);
}

fn partition<T>(v: &mut [T], mut first: usize, mut last: usize, pivot: usize, less: &dyn Fn(&T, &T) -> bool) -> usize {
    loop {
        while less(&v[first], &v[pivot]) {
            first += 1;
        }
        last -= 1;
        while less(&v[pivot], &v[last]) {
            last -= 1;
        }
        if first >= last {
            return first;
        }
        v.swap(first, last);
        first += 1;
    }
}

fn insertion_sort<T: Clone>(v: &mut [T], first: usize, last: usize, less: &dyn Fn(&T, &T) -> bool) {
    for i in first + 1..last {
        if less(&v[i], &v[first]) {
            let x = v[i].clone();
            for k in (first..i).rev() {
                v[k + 1] = v[k].clone();
            }
            v[first] = x;
        } else {
            unguarded_linear_insert(v, i, less);
        }
    }
}

fn unguarded_linear_insert<T: Clone>(v: &mut [T], mut last: usize, less: &dyn Fn(&T, &T) -> bool) {
    let x = v[last].clone();
    while less(&x, &v[last - 1]) {
        v[last] = v[last - 1].clone();
        last -= 1;
    }
    v[last] = x;
}

/// `std::__partial_sort(first, last, last)`: make_heap then sort_heap.
fn heap_sort<T: Clone>(v: &mut [T], less: &dyn Fn(&T, &T) -> bool) {
    let len = v.len();
    if len >= 2 {
        let mut parent = (len - 2) / 2;
        loop {
            let x = v[parent].clone();
            adjust_heap(v, parent, len, x, less);
            if parent == 0 {
                break;
            }
            parent -= 1;
        }
    }
    let mut last = len;
    while last > 1 {
        last -= 1;
        let x = v[last].clone();
        v[last] = v[0].clone();
        adjust_heap(v, 0, last, x, less);
    }
}

fn adjust_heap<T: Clone>(v: &mut [T], mut hole: usize, len: usize, x: T, less: &dyn Fn(&T, &T) -> bool) {
    let top = hole;
    let mut child = hole;
    while child < (len - 1) / 2 {
        child = 2 * (child + 1);
        if less(&v[child], &v[child - 1]) {
            child -= 1;
        }
        v[hole] = v[child].clone();
        hole = child;
    }
    if len & 1 == 0 && child == (len - 2) / 2 {
        child = 2 * (child + 1);
        v[hole] = v[child - 1].clone();
        hole = child - 1;
    }
    let mut parent = hole.wrapping_sub(1) / 2;
    while hole > top && less(&v[parent], &x) {
        v[hole] = v[parent].clone();
        hole = parent;
        parent = hole.wrapping_sub(1) / 2;
    }
    v[hole] = x;
}
