//! `Router::step` never allocates (all storage is allocated in
//! `Router::new`): a counting global allocator watches this thread while
//! routers of every kind run busy random traffic.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use wormqos_config::RouterConfig;
use wormqos_sim::{LinkFlit, Router, RouterInputs};

struct Counting;

thread_local! {
    static WATCHING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if WATCHING.with(Cell::get) {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
        }
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if WATCHING.with(Cell::get) {
            ALLOCATIONS.with(|a| a.set(a.get() + 1));
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn example(name: &str) -> RouterConfig {
    let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    RouterConfig::from_file(std::path::Path::new(&path)).unwrap()
}

/// Example `name` with `lines` added to `[router]`, if that validates.
fn variant(name: &str, what: &str, lines: &str) -> Option<(String, RouterConfig)> {
    let path = format!("{}/../examples/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap().replacen("[router]\n", &format!("[router]\n{lines}"), 1);
    Some((format!("{name} {what}"), RouterConfig::from_toml_str(&text, &path).ok()?))
}

#[test]
fn step_does_not_allocate() {
    // Foundation (both crossbars, every order), partitioned, preemptive
    // with and without acceleration, route_vcs.
    // Each multiplexed one also with the iterative switch allocator (§6),
    // and, where validation allows it, with the registered switch stage
    // and with the maximum-matching bound.
    let names = ["mesh5", "mediaworm8", "qos8", "tiny2", "wide72", "mw8_tr", "mw8_np", "mw8_p", "mw8_pa", "small_p", "torus4_r14"];
    let configs = names.iter().flat_map(|&name| {
        let cfg = example(name);
        let mux = cfg.scheduling().point.is_input_port();
        let iterative = mux.then(|| variant(name, "iterative", "switch_allocator = \"iterative\"\n")).flatten();
        let registered = mux.then(|| variant(name, "registered", "switch_stage = \"registered\"\n")).flatten();
        let both = "switch_allocator = \"iterative\"\nswitch_stage = \"registered\"\n";
        let iterative_registered = mux.then(|| variant(name, "iterative registered", both)).flatten();
        // The model-only maximum-matching bound (§6), where validation allows it.
        let maximum = mux.then(|| variant(name, "maximum_matching", "switch_allocator = \"maximum_matching\"\n")).flatten();
        [Some((name.to_string(), cfg)), iterative, registered, iterative_registered, maximum].into_iter().flatten()
    });
    let (mut runs, mut maximum_runs) = (0, 0);
    for (name, cfg) in configs {
        runs += 1;
        maximum_runs += name.ends_with("maximum_matching") as usize;
        let mut r = Router::new(&cfg);
        let mut inp = RouterInputs::idle(&cfg);
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut moved = 0;
        for t in 0..5000u64 {
            for p in 0..cfg.ports() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                inp.flits[p] = if x % 2 == 0 && (t / 500) % 3 != 2 {
                    LinkFlit {
                lane: 0,
                        valid: true,
                        dummy: x >> 40 & 15 == 0,
                        vc: (x >> 8) as u8 % cfg.vcs() as u8,
                        head: x >> 16 & 3 == 0,
                        tail: x >> 18 & 3 == 0,
                        data: [x >> 20, x, 0, 0],
                    }
                } else {
                    LinkFlit::IDLE
                };
                inp.credits[p] = (x >> 24) as u32;
            }
            WATCHING.with(|w| w.set(true));
            r.step(&inp);
            WATCHING.with(|w| w.set(false));
            moved += r.outputs().flits.iter().filter(|f| f.valid).count();
        }
        assert!(moved > 1000, "{name}: only {moved} flits left the router");
        assert_eq!(ALLOCATIONS.with(Cell::get), 0, "{name}: Router::step allocated");
    }
    assert!(runs >= names.len() + 8 + 6, "only {runs} runs: too few iterative or registered variants");
    assert!(maximum_runs >= 4, "only {maximum_runs} maximum-matching variants");
}
