//! Which analytical model answers an experiment, and its answer in the
//! simulator's `Results` shape, so that `wormqos model` writes the sweep's
//! CSV/JSON columns and plots and model and simulation overlay.
//!
//! `plan` reads and checks everything the model needs from a validated
//! experiment (an input the model does not describe is a field error, exit
//! 2, before any work); `Plan::evaluate` solves it. A model without a
//! steady state answers `Saturated` instead of a negative or infinite
//! latency.

use super::kim2005::{ModelError, RouterModel};
use super::kim2005_cube::{CubeError, CubeModel};
use super::onoff_fluid::{BurstClass, BurstDelay, CubeBurstClass, FluidError, MAX_SOURCES};
use super::onoff_source::{priority_waits, Arrivals, SourceClass};
use super::multilink_ring::{counted_stage_rates, hop_count_moments, max_throughput, multilink_ring_paths, RingModel, RingSaturated, SegQueue, VcQueue};
use super::ring::{ring_mean_links, ring_vc_wait, Queue};
use super::torus002::{TorusError, TorusModel};
use super::vc_queue_tail;
use super::cube_vcq_ports;
use crate::topology::{Network, Peer};
use crate::experiment::{BestEffort, RealTime, SourceQueueModel, Validated};
use crate::metrics::MeanSd;
use crate::network::{ClassStats, Results};
use crate::workload;
use crate::topology::{SharedVcs, TopologySpec};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum PredictError {
    /// The experiment asks for something the model does not describe.
    #[error("{file}: {field} = {value}: {why}")]
    Input { file: String, field: String, value: String, why: String },
    /// The model has no steady state at this point.
    #[error("saturated: {0}")]
    Saturated(String),
    #[error("no convergence: {0}")]
    NoConvergence(String),
    /// Outside what the model describes at this point (the reason).
    #[error("not modelled: {0}")]
    NotModelled(String),
}

/// One class of the model's answer, numbered as the simulator numbers it
/// (0 best effort, the top class R1).
#[derive(Clone, Debug, PartialEq)]
pub struct ClassPrediction {
    pub class: u8,
    /// L̄_c, header injection to tail delivery (cycles).
    pub network_latency: f64,
    /// W̄_c, creation to header injection (cycles); NaN when the source
    /// queue is saturated although the network is not.
    pub source_latency: f64,
    /// T, the transfer time without contention (000_… §3.1's P − 1 + M,
    /// §3.2.1's P − 1 + P h̄ + M), where the model gives one: Figs 5 and 8
    /// split the network latency into T and L̄_c − T.
    pub transfer_time: Option<f64>,
    /// P{network latency > D} for each deadline asked (000_… §3.4, Eqs
    /// 16–23; real-time classes only, NaN where the model has none).
    pub miss: Vec<f64>,
}

/// What a model needs from an experiment, checked.
#[derive(Clone, Debug)]
pub enum Plan {
    /// 000_… §3.1: one router, C − 1 real-time classes and best effort.
    SingleRouter {
        model: RouterModel,
        /// Simulator class of each model class (real time in `rt_rates`
        /// order, then best effort).
        classes: Vec<u8>,
        /// ON/OFF real time: each real-time class's sources, for the
        /// source-queue model of `onoff_source.rs` (a second model row).
        onoff: Option<Vec<Arrivals>>,
        /// ON/OFF real time: each real-time class's streams for the
        /// burst-scale fluid model of `onoff_fluid.rs` (a third row, links
        /// added at c, and a fourth, links in tandem with the turnaround).
        bursts: Option<Vec<BurstClass>>,
        /// [`Options::vc_queue`]: also the row `kim2005_vcq`.
        vc_queue: bool,
    },
    /// 000_… §3.2: binary n-cube, e-cube routing.
    Cube {
        model: CubeModel,
        classes: Vec<u8>,
        hops: Option<usize>,
        onoff: Option<Vec<Arrivals>>,
        /// ON/OFF real time: each real-time class's streams for the
        /// burst-scale fluid model of the cube's links (a third row).
        bursts: Option<Vec<CubeBurstClass>>,
        /// [`Options::vc_queue`]: also the rows `kim2005_cube_vcq` and
        /// `kim2005_cube_vcq_ports`.
        vc_queue: bool,
        /// [`Options::flit_sharing`]: also the row `kim2005_cube_vcq_flit`.
        flit_sharing: bool,
        /// [`Options::body_behind`]: also the row `kim2005_cube_vcq_body`.
        body_behind: bool,
    },
    /// 002_…: unidirectional torus, dimension order, escape VCs.
    Torus { model: TorusModel },
    /// 004_… §4: the tandem of VC queues, the finite-state Markov model and
    /// the segmentation queue on a ring (per-stage rates counted from the
    /// routes); on netsim's unidirectional `ring` also the holding-time
    /// fixed point of `ring.rs`.
    Ring {
        model: RingModel,
        /// Router pipeline P: each hop is t_r + t_flt = P cycles, and the
        /// destination router adds P − 1 that the paper's stages leave out.
        stages: f64,
        /// (nodes, links, vcs, message rate per node) for `ring.rs`.
        holding: Option<(usize, usize, u32, f64)>,
        /// Eq. (8)'s form for the `mmn`, `mdn` and `markov` rows
        /// (`model.source_queue`): M/D/1, or M/G/1 (rows `*_mg1`).
        eq8: SegQueue,
    },
}

/// A named model evaluated at one point; several apply to some topologies.
pub struct Named {
    pub name: &'static str,
    pub result: Result<Vec<ClassPrediction>, PredictError>,
}

impl Plan {
    /// Every model that applies, with the deadline missing probability
    /// for each of `deadlines` (network latency, cycles).
    pub fn evaluate(&self, deadlines: &[f64]) -> Vec<Named> {
        match self {
            Plan::SingleRouter { model, classes, onoff, bursts, vc_queue } => {
                let mut rows = with_onoff_source("kim2005", single_router(model, classes, deadlines), model, classes, onoff.as_deref());
                if *vc_queue {
                    let result = with_vc_queue(&rows[0].result, model.solve().ok().as_ref(), classes, model.rt_rates.len(), |sol, i| vc_queue_tail::router_vcq_miss(model, sol, i, deadlines));
                    rows.push(Named { name: "kim2005_vcq", result });
                }
                if let (Some(arrivals), Some(bursts)) = (onoff, bursts) {
                    let delays: Vec<_> = bursts.iter().map(|b| (b.streams, b.delay())).collect();
                    let result = with_burst_fluid(&rows[0].result, model, classes, arrivals, &delays);
                    rows.push(Named { name: "kim2005_fluid", result });
                    // The same with the two links in tandem, the router's
                    // VC turnaround in their capacities and the source link
                    // coupled backwards to the destination links.
                    let tandem: Vec<_> = bursts.iter().map(|b| (b.streams, b.coupled_delay())).collect();
                    let result = with_burst_fluid(&rows[0].result, model, classes, arrivals, &tandem);
                    rows.push(Named { name: "kim2005_tandem", result });
                }
                rows
            }
            Plan::Ring { model, stages, holding, eq8 } => ring_models(model, *eq8, *stages, *holding, deadlines.len()),
            Plan::Cube { model, classes, hops, onoff, bursts, vc_queue, flit_sharing, body_behind } => {
                let mut rows = with_onoff_source("kim2005_cube", cube(model, classes, deadlines, *hops), &model.router, classes, onoff.as_deref());
                if *vc_queue {
                    let result = with_vc_queue(&rows[0].result, model.solve().ok().as_ref(), classes, model.router.rt_rates.len(), |sol, i| vc_queue_tail::cube_vcq_miss(model, sol, i, *hops, deadlines));
                    rows.push(Named { name: "kim2005_cube_vcq", result });
                    // The same queues with the router's hold (the message's
                    // transmission and its body's delays on the links
                    // before) and a header waiting only behind the other
                    // input ports' messages (`cube_vcq_ports.rs`).
                    let result = with_vc_queue(&rows[0].result, model.solve().ok().as_ref(), classes, model.router.rt_rates.len(), |sol, i| cube_vcq_ports::cube_vcq_ports_miss(model, sol, i, *hops, deadlines));
                    rows.push(Named { name: "kim2005_cube_vcq_ports", result });
                }
                if *flit_sharing {
                    // The ports row with each link's S̄ per flit, not per
                    // cycle (Eq. 6), in the holds (`cube_vcq_ports.rs`).
                    let result = with_vc_queue(&rows[0].result, model.solve().ok().as_ref(), classes, model.router.rt_rates.len(), |sol, i| cube_vcq_ports::cube_vcq_flit_miss(model, sol, i, *hops, deadlines));
                    rows.push(Named { name: "kim2005_cube_vcq_flit", result });
                }
                if *body_behind {
                    // The flit row with the body's delay behind the other
                    // classes' flits on the links before the ejection
                    // (`cube_body_behind.rs`).
                    let result = with_vc_queue(&rows[0].result, model.solve().ok().as_ref(), classes, model.router.rt_rates.len(), |sol, i| cube_vcq_ports::cube_vcq_body_miss(model, sol, i, *hops, deadlines));
                    rows.push(Named { name: "kim2005_cube_vcq_body", result });
                }
                if let (Some(arrivals), Some(bursts)) = (onoff, bursts) {
                    let delays: Vec<_> = bursts.iter().map(|b| (b.class.streams, b.delay())).collect();
                    let result = with_burst_fluid(&rows[0].result, &model.router, classes, arrivals, &delays);
                    rows.push(Named { name: "kim2005_cube_fluid", result });
                    // In tandem, as the router's `kim2005_tandem`: the VC
                    // turnaround in every link's capacity, each network
                    // link fed by the upstream VCs' outputs, the injection
                    // link coupled backwards to the first hop's blocking.
                    let tandem: Vec<_> = bursts.iter().map(|b| (b.class.streams, b.coupled_delay())).collect();
                    let result = with_burst_fluid(&rows[0].result, &model.router, classes, arrivals, &tandem);
                    rows.push(Named { name: "kim2005_cube_tandem", result });
                    // The same links with the network's backlog waiting at
                    // the source (one message per VC buffer): the larger
                    // of the injection link's and the network's waits,
                    // not their sum.
                    let merged: Vec<_> = bursts.iter().map(|b| (b.class.streams, b.backlog_at_source_delay())).collect();
                    let result = with_burst_fluid(&rows[0].result, &model.router, classes, arrivals, &merged);
                    rows.push(Named { name: "kim2005_cube_source_backlog", result });
                    // The tandem links with each network link holding only
                    // what its input VC buffers hold, the rest of its
                    // backlog waiting at the source in one queue with the
                    // injection link's (`cube_held.rs`).
                    let held: Vec<_> = bursts.iter().map(|b| (b.class.streams, b.held_delay())).collect();
                    let result = with_burst_fluid(&rows[0].result, &model.router, classes, arrivals, &held);
                    rows.push(Named { name: "kim2005_cube_held", result });
                }
                rows
            }
            Plan::Torus { model } => vec![Named {
                name: "torus002",
                result: model
                    .solve()
                    .map(|s| vec![ClassPrediction { class: 0, network_latency: s.network_latency, source_latency: s.source_wait, transfer_time: None, miss: vec![f64::NAN; deadlines.len()] }])
                    .map_err(|e| match e {
                        TorusError::Saturated(why) => PredictError::Saturated(why),
                        TorusError::NoConvergence => PredictError::NoConvergence("002_… fixed point after 100,000 iterations".into()),
                    }),
            }],
        }
    }
}

/// The row `kim2005_vcq` / `kim2005_cube_vcq` from the base row: each
/// real-time class's network latency plus its mean VC wait and its miss
/// probabilities with the wait added (`vcq(solution, model class)`);
/// best effort as in the base row.
fn with_vc_queue<S>(base: &Result<Vec<ClassPrediction>, PredictError>, sol: Option<&S>, classes: &[u8], rt: usize, vcq: impl Fn(&S, usize) -> Option<(f64, Vec<f64>)>) -> Result<Vec<ClassPrediction>, PredictError> {
    let mut out = base.clone()?;
    let sol = sol.expect("the base row solved the model");
    for (i, &class) in classes.iter().enumerate().take(rt) {
        let Some(p) = out.iter_mut().find(|p| p.class == class && p.miss.iter().all(|x| x.is_finite())) else { continue };
        let (wait, miss) = vcq(sol, i).ok_or_else(|| PredictError::Saturated(format!("class {class}: a VC queue of the one VC per class has ρ = λL ≥ 1")))?;
        p.network_latency += wait;
        p.miss = miss;
    }
    Ok(out)
}

/// The model's row `name`, and with ON/OFF real time a second row
/// `<name>_onoff`: the same network latency, the real-time classes' source
/// waiting time from the ON/OFF source-queue model (`onoff_source.rs`: our
/// NI's per-flit priority, M_c flit cycles per message, the other streams
/// locally Poisson, the own burst's backlog), best effort's (Poisson,
/// below every real-time class) kept from Eq. (15).
fn with_onoff_source(name: &'static str, base: Result<Vec<ClassPrediction>, PredictError>, model: &RouterModel, classes: &[u8], onoff: Option<&[Arrivals]>) -> Vec<Named> {
    let Some(arrivals) = onoff else {
        return vec![Named { name, result: base }];
    };
    let onoff_name = if name == "kim2005" { "kim2005_onoff" } else { "kim2005_cube_onoff" };
    let result = match &base {
        Err(e) => Err(e.clone()),
        Ok(_) if model.msg_flits.iter().take(arrivals.len().min(model.rt_rates.len())).any(|&m| m > model.buffer_flits) => Err(PredictError::NotModelled(format!(
            "ON/OFF source queue with messages longer than the VC buffer (b_s = {} flits): the NI then waits for credits, which the model leaves out",
            model.buffer_flits
        ))),
        Ok(base) => {
            let queue: Vec<SourceClass> = arrivals.iter().zip(&model.rt_rates).zip(&model.msg_flits).map(|((&a, &l), &m)| SourceClass::flits(l, m, a)).collect();
            let waits = priority_waits(&queue);
            let mut out = base.clone();
            let mut failed = None;
            for (i, w) in waits.iter().enumerate() {
                let Some(p) = out.iter_mut().find(|p| p.class == classes[i]) else { continue };
                match w {
                    Ok(w) => p.source_latency = w.wait,
                    Err(e) => {
                        failed.get_or_insert(format!("the injection link: real-time classes down to {} carry ρ = {:.3} ≥ 1", classes[e.class], e.utilization));
                    }
                }
            }
            failed.map_or(Ok(out), |why| Err(PredictError::Saturated(why)))
        }
    };
    vec![Named { name, result: base }, Named { name: onoff_name, result }]
}

/// The row `kim2005_fluid` (single router) or `kim2005_cube_fluid`
/// (n-cube), `kim2005_cube_tandem` (`CubeBurstClass::coupled_delay`,
/// the n-cube's links in tandem as the router's) and
/// `kim2005_cube_source_backlog` (`CubeBurstClass::backlog_at_source_delay`:
/// the tandem's injection link and network links merged as the larger of
/// two waits) and `kim2005_cube_held` (`CubeBurstClass::held_delay`, each
/// network link holding only what its input VC buffers hold): the base model with each ON/OFF real-time class's
/// burst-scale fluid delays (`onoff_fluid.rs`; per class its streams per
/// endpoint and its delays) added where they occur; also the single
/// router's `kim2005_tandem`, whose delays are `BurstClass::coupled_delay`'s
/// (source link at c·M/(M + 2), its other streams' part slowed by their
/// blocking at the destinations, destination link fed by the source links'
/// outputs at c·M/(M + 1)) —
/// the source's injection link to the source wait (with the packet-scale
/// wait of `onoff_source.rs` without its own-burst term, which the fluid
/// queue replaces), the destination's output link (in the cube also the
/// hop links) to the network latency.
/// Best effort keeps Eq. (15) and `kim2005`'s network latency; the
/// deadline missing probabilities stay `kim2005`'s (network latency only).
fn with_burst_fluid(
    base: &Result<Vec<ClassPrediction>, PredictError>,
    model: &RouterModel,
    classes: &[u8],
    arrivals: &[Arrivals],
    bursts: &[(usize, Result<BurstDelay, FluidError>)],
) -> Result<Vec<ClassPrediction>, PredictError> {
    let base = base.as_ref().map_err(Clone::clone)?;
    if let Some(m) = model.msg_flits.iter().take(arrivals.len().min(model.rt_rates.len())).find(|&&m| m > model.buffer_flits) {
        return Err(PredictError::NotModelled(format!(
            "burst-scale fluid model with {m}-flit messages longer than the VC buffer (b_s = {} flits): the NI then waits for credits",
            model.buffer_flits
        )));
    }
    // The packet scale: every stream's messages locally Poisson, no
    // own-burst backlog (N = 1); the bursts are the fluid part.
    let packet: Vec<SourceClass> = arrivals
        .iter()
        .zip(&model.rt_rates)
        .zip(&model.msg_flits)
        .map(|((&a, &l), &m)| match a {
            Arrivals::OnOff { streams, gap, .. } => SourceClass::flits(l, m, Arrivals::OnOff { streams, gap, mean_burst: 1.0 }),
            Arrivals::Poisson => SourceClass::flits(l, m, a),
        })
        .collect();
    let waits = priority_waits(&packet);
    let mut out = base.clone();
    for (i, (w, (streams, delay))) in waits.iter().zip(bursts).enumerate() {
        let class = classes[i];
        let w = w.as_ref().map_err(|e| PredictError::Saturated(format!("the injection link: real-time classes down to {} carry ρ = {:.3} ≥ 1", classes[e.class], e.utilization)))?;
        let d = delay.clone().map_err(|e| match e {
            FluidError::Saturated { load, capacity } => {
                PredictError::Saturated(format!("class {class}'s bursts: mean load {load:.4} ≥ the {capacity:.4} flits/cycle the link gives the class"))
            }
            FluidError::NotSolved(why) | FluidError::IllConditioned(why) => PredictError::NotModelled(format!(
                "class {class}'s burst-scale fluid queue ({why}; workload.onoff_streams = {} per port, at most {MAX_SOURCES} sources per link are solved)",
                streams
            )),
        })?;
        let Some(p) = out.iter_mut().find(|p| p.class == class) else { continue };
        p.source_latency = w.wait + d.source_link;
        p.network_latency += d.destination_link;
    }
    Ok(out)
}

fn single_router(model: &RouterModel, classes: &[u8], deadlines: &[f64]) -> Result<Vec<ClassPrediction>, PredictError> {
    let n = model.rt_rates.len();
    let sol = model.solve().map_err(|e| match e {
        ModelError::Saturated { class } if class < n => {
            PredictError::Saturated(format!("class {}: 1/L_c(k) − λ'_c ≤ 0, the VC occupancy chain (Eqs 6–8) has no steady state", classes[class]))
        }
        ModelError::Saturated { .. } => PredictError::Saturated("real time occupies the link all the time (ρ_r = 1, Eq. 9)".into()),
        ModelError::Overloaded { class } => {
            PredictError::Saturated(format!("class {}: utilisation λ'L̄ reaches 1 (Eq. 3), Eqs (2)–(9) have no fixed point", classes[class]))
        }
        ModelError::NoConvergence => PredictError::NoConvergence("Eqs (2)–(9) after 100,000 iterations".into()),
        ModelError::BadInput(why) => PredictError::NoConvergence(format!("model input: {why}")),
    })?;
    let rates: Vec<f64> = model.rt_rates.iter().copied().chain([model.be_rate]).collect();
    let mut out = Vec::new();
    for (i, c) in sol.classes.iter().enumerate() {
        if rates[i] <= 0.0 {
            continue;
        }
        // An unstable source queue (Eq. 15: λL̄ ≥ 1) leaves the network
        // latency defined; the source wait is then "saturated" (NaN).
        let source_latency = if c.source_wait.is_finite() { c.source_wait } else { f64::NAN };
        let miss = deadlines.iter().map(|&d| if i < n { model.deadline_miss_probability(&sol, i, d) } else { f64::NAN }).collect();
        out.push(ClassPrediction { class: classes[i], network_latency: c.network_latency, source_latency, transfer_time: Some(model.transfer_time(i)), miss });
    }
    Ok(out)
}

fn cube(model: &CubeModel, classes: &[u8], deadlines: &[f64], hops: Option<usize>) -> Result<Vec<ClassPrediction>, PredictError> {
    let sol = model.solve().map_err(|e| match e {
        CubeError::Saturated { class, channel } => PredictError::Saturated(format!(
            "class {} on {}: no steady state (Eqs 3, 6–8 or 11)",
            classes[class],
            if channel == model.n { "the ejection channel".to_string() } else { format!("channel {channel}") }
        )),
        CubeError::NoConvergence => PredictError::NoConvergence("Eqs (10)–(14) after 100,000 iterations".into()),
        CubeError::BadInput(why) => PredictError::NoConvergence(format!("model input: {why}")),
    })?;
    let rates: Vec<f64> = model.router.rt_rates.iter().copied().chain([model.router.be_rate]).collect();
    Ok(sol
        .classes
        .iter()
        .enumerate()
        .filter(|(i, _)| rates[*i] > 0.0)
        .map(|(i, c)| ClassPrediction {
            class: classes[i],
            network_latency: c.network_latency,
            source_latency: if c.source_wait.is_finite() { c.source_wait } else { f64::NAN },
            transfer_time: Some(model.transfer_time(i)),
            miss: match (i < model.router.rt_rates.len(), hops) {
                (false, _) => vec![f64::NAN; deadlines.len()],
                (true, None) => model.miss_probabilities(&sol, i, deadlines),
                (true, Some(h)) => deadlines.iter().map(|&d| model.hops_miss_probability(&sol, i, h, d)).collect(),
            },
        })
        .collect())
}

fn ring_saturated(e: RingSaturated) -> PredictError {
    PredictError::Saturated(match e {
        RingSaturated::Stage(i) => format!("VC queue at stage {i} (ρ ≥ 1)"),
        RingSaturated::Source { rho } => format!("source segmentation queue ρ = {rho:.3} ≥ 1 (Eq. 8)"),
    })
}

fn ring_models(model: &RingModel, eq8: SegQueue, stages: f64, holding: Option<(usize, usize, u32, f64)>, deadlines: usize) -> Vec<Named> {
    let ejection = stages - 1.0;
    let answer = |service: Result<f64, RingSaturated>, seg: SegQueue| -> Result<Vec<ClassPrediction>, PredictError> {
        let ts = service.map_err(ring_saturated)?;
        let t = model.transfer_time(ts, seg).map_err(ring_saturated)?;
        Ok(vec![ClassPrediction { class: 0, network_latency: ts + ejection, source_latency: t - ts, transfer_time: None, miss: vec![f64::NAN; deadlines] }])
    };
    let mut out: Vec<Named> = ring_services(model, eq8).into_iter().map(|(name, ts, seg)| Named { name, result: answer(ts, seg) }).collect();
    if let Some((nodes, links, vcs, rate)) = holding {
        for (name, q) in [("holding_mmn", Queue::MMn), ("holding_mdn", Queue::MDn)] {
            let h = ring_mean_links(nodes);
            let result = ring_vc_wait(nodes, links, vcs, model.msg_flits, stages, rate, q)
                .map(|w| vec![ClassPrediction { class: 0, network_latency: stages - 1.0 + model.msg_flits + stages * h + h * w, source_latency: 0.0, transfer_time: None, miss: vec![f64::NAN; deadlines] }])
                .ok_or_else(|| PredictError::Saturated("VC queue (M/M/n or M/D/n holding-time fixed point has no solution)".into()));
            out.push(Named { name, result });
        }
    }
    out
}

/// 004_…'s four ring models: name, t̄_s (Eq. 7, 13 or 22) and the
/// segmentation queue Eq. (8) puts in front of it: `eq8` (M/D/1, or M/G/1
/// with the rows named `*_mg1`) for the first three, M/M/1 for Fig. 8's
/// `markov_mm1`.
fn ring_services(model: &RingModel, eq8: SegQueue) -> [(&'static str, Result<f64, RingSaturated>, SegQueue); 4] {
    let markov = model.markov().map(|s| s.service);
    let [mmn, mdn, mk] = if eq8 == SegQueue::MG1 { ["mmn_mg1", "mdn_mg1", "markov_mg1"] } else { ["mmn", "mdn", "markov"] };
    [
        (mmn, model.tandem_service(VcQueue::MMn), eq8),
        (mdn, model.tandem_service(VcQueue::MDn), eq8),
        (mk, markov.clone(), eq8),
        ("markov_mm1", markov, SegQueue::MM1),
    ]
}

/// 004_… Eq. (23) per ring model: the source's service time t̄_s (cycles)
/// and λ_max = 1/t̄_s, the most packets per cycle a node can offer in one
/// direction at this load. Defined even where Eq. (8)'s segmentation queue
/// is saturated (that is λ_dir ≥ λ_max); `Err` where a VC queue is. Empty
/// for the other topologies' models.
pub struct ThroughputBound {
    pub name: &'static str,
    pub service: Result<f64, PredictError>,
    /// λ_n/2 (or λ_n on a unidirectional ring): packets per cycle offered
    /// into one segmentation queue.
    pub offered: f64,
}

impl ThroughputBound {
    pub fn lambda_max(&self) -> Option<f64> {
        self.service.as_ref().ok().map(|&ts| max_throughput(ts))
    }
}

impl Plan {
    pub fn throughput_bounds(&self) -> Vec<ThroughputBound> {
        match self {
            Plan::Ring { model, eq8, .. } => ring_services(model, *eq8)
                .into_iter()
                .map(|(name, ts, _)| ThroughputBound { name, service: ts.map_err(ring_saturated), offered: model.source_rate })
                .collect(),
            _ => Vec::new(),
        }
    }
}

/// Seconds per flit time in the paper's units: `model.packet_bits` /
/// M / link rate when the experiment gives the paper's packet length (004_…
/// counts 2 KB packets on 624 Mbit/s links), else the simulator's cycle.
pub fn flit_seconds(v: &Validated) -> f64 {
    v.exp.model.packet_bits.map_or(v.cycle_s, |b| b / v.exp.workload.class_flits(0) as f64 / (v.exp.physical.link_mbps * 1e6))
}

/// Links of every route on a `multilink_ring` under 004_…'s second
/// strategy: the shorter direction (ties +) on link s mod l, the source's
/// block, all the way (ports 1 + j going +, 1 + l + j going −).
fn source_block_paths(net: &Network) -> Vec<Vec<usize>> {
    let n = net.endpoint_at.len();
    let links = (net.out_link[0].len() - 1) / 2;
    let mut ids = std::collections::HashMap::new();
    let mut paths = Vec::new();
    for s in 0..n {
        for d in (0..n).filter(|&d| d != s) {
            let fwd = (d + n - s) % n;
            let port = if fwd <= n - fwd { 1 } else { 1 + links } + s % links;
            let (mut r, mut p) = (s, Vec::new());
            while r != d {
                let next = ids.len();
                p.push(*ids.entry((r, port)).or_insert(next));
                let Peer::Router { router, .. } = net.out_link[r][port] else { break };
                r = router;
            }
            paths.push(p);
        }
    }
    paths
}

/// Router-to-router links (router, output port) of every source→destination
/// route, numbered densely.
fn route_paths(net: &Network) -> Vec<Vec<usize>> {
    let n = net.endpoint_at.len();
    let mut ids = std::collections::HashMap::new();
    let mut paths = Vec::new();
    for s in 0..n {
        for d in 0..n {
            if s == d {
                continue;
            }
            let (mut r, _) = net.endpoint_at[s];
            let mut p = Vec::new();
            for _ in 0..net.routers {
                let port = net.routes[r][net.dest_code(s, d)] as usize;
                match net.out_link[r][port] {
                    Peer::Router { router, .. } => {
                        let next = ids.len();
                        p.push(*ids.entry((r, port)).or_insert(next));
                        r = router;
                    }
                    _ => break,
                }
            }
            paths.push(p);
        }
    }
    paths
}

impl PredictError {
    /// Adds the line of the offending field (`file:line`) when `text`, the
    /// experiment file's text, writes it there (a field a `[sweep]` sets,
    /// or a command-line option, keeps the bare file name).
    pub fn located(self, text: &str) -> PredictError {
        match self {
            PredictError::Input { file, field, value, why } => PredictError::Input { file: wormqos_config::files::at(&file, text, &field), field, value, why },
            other => other,
        }
    }
}

fn input_err(v: &Validated, field: &str, value: impl ToString, why: impl Into<String>) -> PredictError {
    PredictError::Input { file: v.file.clone(), field: field.to_string(), value: value.to_string(), why: why.into() }
}

/// Model choices that are not part of the experiment (the simulator cannot
/// follow them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// 004_…'s second routing strategy on a `multilink_ring`: a packet uses
    /// the link of its *source's* 4-node block, whatever the file's
    /// `topology.strategy` (which is what the simulator follows).
    pub ring_source_block: bool,
    /// Deadline missing probability of h-hop messages only (n-cube).
    pub hops: Option<usize>,
    /// 000_… models: also the rows `kim2005_vcq` / `kim2005_cube_vcq`, the
    /// wait for each hop's one VC per class (M/D/1) added to the latency
    /// (`vc_queue_tail.rs`; issue 22); on a hypercube also
    /// `kim2005_cube_vcq_ports`, with the router's hold and the other input
    /// ports' share (`cube_vcq_ports.rs`).
    pub vc_queue: bool,
    /// With [`Options::vc_queue`] on a hypercube: also the row
    /// `kim2005_cube_vcq_flit`, `kim2005_cube_vcq_ports` with each link's
    /// S̄ per flit instead of Eq. (6)'s per cycle in the holds.
    pub flit_sharing: bool,
    /// With [`Options::flit_sharing`]: also the row `kim2005_cube_vcq_body`,
    /// `kim2005_cube_vcq_flit` with the body's delay behind the other
    /// classes' flits on the injection and dimension links
    /// (`cube_body_behind.rs`).
    pub body_behind: bool,
}

/// Checks an experiment against the assumptions of the model for its
/// topology and returns the model's inputs.
pub fn plan(v: &Validated) -> Result<Plan, PredictError> {
    plan_with(v, &Options::default())
}

pub fn plan_with(v: &Validated, opts: &Options) -> Result<Plan, PredictError> {
    if opts.ring_source_block && !matches!(v.exp.topology.spec, TopologySpec::MultilinkRing { .. }) {
        return Err(input_err(v, "topology.kind", format!("{:?}", v.exp.topology.spec), "--ring-strategy source-block needs kind = \"multilink_ring\""));
    }
    if let Some(h) = opts.hops {
        let n = match v.exp.topology.spec {
            TopologySpec::Hypercube { n } => n as usize,
            _ => 0,
        };
        if !(1..=n).contains(&h) {
            return Err(input_err(v, "--hops", h, format!("h-hop deadline missing probability (000_… §3.4.2) needs kind = \"hypercube\" and 1..=n (n = {n})")));
        }
    }
    if opts.flit_sharing {
        if !opts.vc_queue {
            return Err(input_err(v, "--flit-sharing", "true", "the row kim2005_cube_vcq_flit is a variant of the VC-queue rows: give --vc-queue too"));
        }
        if !matches!(v.exp.topology.spec, TopologySpec::Hypercube { .. }) {
            return Err(input_err(v, "--flit-sharing", "true", format!("the row kim2005_cube_vcq_flit is 000_… §3.2's: needs topology.kind = \"hypercube\", not {:?}", v.exp.topology.spec)));
        }
    }
    if opts.body_behind && !opts.flit_sharing {
        return Err(input_err(v, "--body-behind", "true", "the row kim2005_cube_vcq_body is a variant of kim2005_cube_vcq_flit: give --vc-queue --flit-sharing too"));
    }
    let w = &v.exp.workload;
    if !w.phases.is_empty() {
        return Err(input_err(v, "workload.phases", format!("{:?}", w.phases), "the models are for one stationary mix: leave workload.phases out"));
    }
    if w.control {
        return Err(input_err(v, "workload.control", "true", "the models have no control traffic: set it false"));
    }
    if v.exp.topology.link_latency > 0 {
        return Err(input_err(v, "topology.link_latency", v.exp.topology.link_latency, "the models' links have no registers: allowed range 0..=0"));
    }
    let ring = matches!(v.exp.topology.spec, TopologySpec::Ring { .. } | TopologySpec::MultilinkRing { .. });
    if !ring && !v.exp.model.source_queue.is_md1() {
        return Err(input_err(
            v,
            "model.source_queue",
            "\"mg1\"",
            "Eq. (8)'s source segmentation queue is 004_…'s ring model: kind = \"ring\" or \"multilink_ring\", or allowed value \"md1\" (the default)",
        ));
    }
    match &v.exp.topology.spec {
        TopologySpec::SingleSwitch => plan_single_router(v, opts.vc_queue),
        TopologySpec::Ring { .. } | TopologySpec::MultilinkRing { .. } => plan_ring(v, opts.ring_source_block),
        TopologySpec::Hypercube { n } => plan_cube(v, *n as usize, opts.hops, opts.vc_queue, opts.flit_sharing, opts.body_behind),
        TopologySpec::UnidirectionalTorus { k, n, shared_vcs } => plan_torus(v, *k as usize, *n as usize, *shared_vcs),
        other => Err(input_err(
            v,
            "topology.kind",
            format!("{other:?}"),
            "no analytical model for this topology: single_switch (000_… §3.1), hypercube (000_… §3.2), unidirectional_torus (002_…), ring or multilink_ring (004_… §4)",
        )),
    }
}

/// Flits per cycle per endpoint of real time and of best effort.
fn flit_rates(v: &Validated) -> (f64, f64) {
    let w = &v.exp.workload;
    let rt = if w.realtime == RealTime::None { 0.0 } else { w.load * w.mix[0] / (w.mix[0] + w.mix[1]) };
    let be = if w.best_effort == BestEffort::None { 0.0 } else { w.load * w.mix[1] / (w.mix[0] + w.mix[1]) };
    (rt, be)
}

/// Messages per cycle per endpoint of the one class of 002_… and 004_….
fn message_rate(v: &Validated) -> f64 {
    flit_rates(v).1 / v.exp.workload.class_flits(0) as f64
}

fn plan_single_router(v: &Validated, vc_queue: bool) -> Result<Plan, PredictError> {
    let (model, classes, onoff) = qos_inputs(v)?;
    let bursts = onoff.as_ref().map(|_| burst_classes(v, &model, v.configs[0].ports()));
    Ok(Plan::SingleRouter { model, classes, onoff, bursts, vc_queue })
}

/// Each ON/OFF real-time class's streams for the fluid model, with
/// `endpoints` endpoints: its flits at a link get what the classes above
/// leave (their mean flit load).
fn burst_classes(v: &Validated, model: &RouterModel, endpoints: usize) -> Vec<BurstClass> {
    let sources = v.offered().map(|o| o.onoff).unwrap_or_default();
    let mut above = 0.0;
    sources
        .iter()
        .zip(&model.rt_rates)
        .map(|(o, &rate)| {
            let b = BurstClass {
                ports: endpoints,
                streams: v.exp.workload.onoff_streams as usize,
                mean_burst: v.exp.workload.onoff_mean_messages,
                gap: o.gap,
                off_mean: o.off,
                flits: o.flits as f64,
                capacity: 1.0 - above,
            };
            above += rate * o.flits as f64;
            b
        })
        .collect()
}

fn plan_cube(v: &Validated, n: usize, hops: Option<usize>, vc_queue: bool, flit_sharing: bool, body_behind: bool) -> Result<Plan, PredictError> {
    let (router, classes, onoff) = qos_inputs(v)?;
    let bursts = onoff.as_ref().map(|_| burst_classes(v, &router, 1 << n).into_iter().map(|class| CubeBurstClass { n, class }).collect());
    Ok(Plan::Cube { model: CubeModel { n, router }, classes, hops, onoff, bursts, vc_queue, flit_sharing, body_behind })
}

/// 000_…'s router assumptions, checked: VirtualClock, one VC per class, one
/// buffer size, Poisson (or ON/OFF at its mean rate) real time. Returns the
/// single-router inputs, the simulator class of each model class and, for
/// ON/OFF real time, each real-time class's sources.
fn qos_inputs(v: &Validated) -> Result<(RouterModel, Vec<u8>, Option<Vec<Arrivals>>), PredictError> {
    let w = &v.exp.workload;
    let cfg = &v.configs[0];
    if !matches!(w.realtime, RealTime::Poisson | RealTime::OnOff | RealTime::None) {
        return Err(input_err(v, "workload.realtime", format!("{:?}", w.realtime), "000_… §3 models Poisson real time (\"poisson\", or \"on_off\" at its mean rate) or \"none\""));
    }
    if w.best_effort == BestEffort::Bernoulli {
        return Err(input_err(v, "workload.best_effort", "\"bernoulli\"", "000_… §3 models Poisson arrivals: \"poisson\" or \"none\""));
    }
    if cfg.scheduling().virtual_clock().is_none() {
        return Err(input_err(v, "router.scheduler", format!("{:?}", cfg.scheduler()), "000_… §3.1 models VirtualClock at the output (Eqs 6–9): \"virtualclock\""));
    }
    let classes = cfg.traffic_classes() as usize;
    if cfg.vcs() != classes {
        return Err(input_err(v, "router.vcs", cfg.vcs(), format!("000_… §3.1 gives each class one VC: must equal router.traffic_classes ({classes})")));
    }
    // The model's classes own their VCs. An unpartitioned router's VA hands
    // any free output VC to any class, so best effort takes the VCs real
    // time needs and the classes share VirtualClock state (docs/reproduction.md,
    // 000_… Fig. 4: why model and simulation disagreed).
    if cfg.vc_classes().is_none() {
        return Err(input_err(
            v,
            "router.mode",
            format!("\"{}\"", cfg.mode().as_str()),
            "000_… §3 gives each class its own VC: set mode = \"non_preemptive\" with vc_classes = [C − 1, …, 1, 0] (one VC per class)",
        ));
    }
    if cfg.output_buffer_depth() != cfg.input_buffer_depth() {
        return Err(input_err(
            v,
            "router.output_buffer_depth",
            cfg.output_buffer_depth(),
            format!("000_… §3.1 has one VC buffer size b_s: must equal router.input_buffer_depth ({})", cfg.input_buffer_depth()),
        ));
    }
    let (rt, be) = flit_rates(v);
    let rt_classes = match w.realtime {
        RealTime::Poisson | RealTime::OnOff => v.realtime_class_rates(rt),
        _ => vec![],
    };
    if rt_classes.len() + 1 > classes {
        return Err(input_err(
            v,
            "router.traffic_classes",
            classes,
            format!("the model gives each of the {} real-time classes and best effort its own class: allowed range {}..=8", rt_classes.len(), rt_classes.len() + 1),
        ));
    }
    // The simulator rounds each class's Vtick = 1/(λ_c M_c) to whole cycles
    // within the header field; the model uses the same values (one ON/OFF
    // class without model.realtime_rates: its streams' peak-rate Vtick).
    let scale = v.exp.model.vtick_scale.unwrap_or(1.0);
    let onoff = v.offered().map_err(|e| input_err(v, "workload", "ON/OFF sources", e.to_string()))?.onoff;
    let vticks: Vec<f64> = rt_classes
        .iter()
        .enumerate()
        .map(|(i, &(_, l, m))| match (v.per_class_onoff(), onoff.get(i)) {
            (false, Some(o)) => o.vtick as f64,
            _ => workload::realtime_vtick(scale, l, m, v.vtick_max()) as f64,
        })
        .collect();
    let mut sim_class: Vec<u8> = rt_classes.iter().map(|c| c.0).collect();
    sim_class.push(0);
    let be_flits = w.class_flits(0) as f64;
    let model = RouterModel {
        stages: 5.0,
        msg_flits: rt_classes.iter().map(|c| c.2 as f64).chain([be_flits]).collect(),
        buffer_flits: cfg.input_buffer_depth() as f64,
        rt_rates: rt_classes.iter().map(|c| c.1).collect(),
        vticks,
        be_rate: be / be_flits,
    };
    // The simulator's ON/OFF classes come in the order of
    // `realtime_class_rates`, as the model's real-time classes do.
    let arrivals = (w.realtime == RealTime::OnOff && !onoff.is_empty()).then(|| {
        onoff.iter().map(|o| Arrivals::OnOff { streams: w.onoff_streams, gap: o.gap, mean_burst: w.onoff_mean_messages }).collect()
    });
    Ok((model, sim_class, arrivals))
}

/// 002_… and 004_… model one class of Poisson messages.
fn one_poisson_class(v: &Validated, paper: &str) -> Result<(), PredictError> {
    let w = &v.exp.workload;
    if w.realtime != RealTime::None || w.best_effort != BestEffort::Poisson {
        return Err(input_err(
            v,
            "workload.realtime",
            format!("{:?} (best effort {:?})", w.realtime, w.best_effort),
            format!("{paper} models one class of Poisson messages: realtime = \"none\", best_effort = \"poisson\""),
        ));
    }
    Ok(())
}

fn plan_torus(v: &Validated, k: usize, n: usize, shared: SharedVcs) -> Result<Plan, PredictError> {
    let w = &v.exp.workload;
    let cfg = &v.configs[0];
    one_poisson_class(v, "002_…")?;
    if shared != SharedVcs::Any {
        return Err(input_err(
            v,
            "topology.shared_vcs",
            "\"after_dateline\"",
            "002_…'s model lets every message take the shared VCs: `\"any\"` (deadlock free on our routers with `router.vc_reallocation = \"atomic\"`, docs/microarchitecture.md §11)",
        ));
    }
    if cfg.vc_classes().is_some() || cfg.vcs() < 2 {
        return Err(input_err(v, "router.vcs", cfg.vcs(), "002_… shares L ≥ 2 VCs among all messages: an unpartitioned router with 2..=16 VCs"));
    }
    let rate = message_rate(v);
    // Our routers take P = 5 cycles per hop where the paper's take one.
    Ok(Plan::Torus { model: TorusModel { radix: vec![k; n], vcs: cfg.vcs(), msg_flits: w.class_flits(0) as f64, rate, router_delay: 4.0 } })
}

fn plan_ring(v: &Validated, source_block: bool) -> Result<Plan, PredictError> {
    let w = &v.exp.workload;
    let cfg = &v.configs[0];
    one_poisson_class(v, "004_… §4")?;
    let lambda_n = message_rate(v);
    let paths = if source_block { source_block_paths(&v.net) } else { route_paths(&v.net) };
    // With dateline classes a header may use only half of a link's VCs.
    let vcs = if v.net.vc_class.is_empty() { cfg.vcs() } else { cfg.vcs() / 2 } as u32;
    let bidirectional = matches!(v.exp.topology.spec, TopologySpec::MultilinkRing { .. });
    let model = RingShape::from_paths(&paths, v.net.endpoint_at.len(), bidirectional, lambda_n).model(lambda_n, vcs, w.class_flits(0) as f64);
    let eq8 = match v.exp.model.source_queue {
        SourceQueueModel::Md1 => SegQueue::MD1,
        SourceQueueModel::Mg1 => SegQueue::MG1,
    };
    let holding = match v.exp.topology.spec {
        TopologySpec::Ring { nodes, links, .. } => Some((nodes as usize, links.unwrap_or((nodes / 4).max(1)) as usize, vcs, lambda_n)),
        _ => None,
    };
    Ok(Plan::Ring { model, stages: RING_STAGES, holding, eq8 })
}

/// Our routers' pipeline: a hop is t_r + t_flt = P cycles.
const RING_STAGES: f64 = 5.0;

/// The part of 004_…'s ring models that the routes fix: the stage rates
/// λ̄_i counted from the routes at one node rate (they are linear in λ_n),
/// counted once so that a grid of loads does not recount them.
pub struct RingShape {
    /// λ̄_1..=λ̄_H at λ_n = `rate`.
    rates: Vec<f64>,
    rate: f64,
    bidirectional: bool,
    /// Var(h) over the paths, for Eq. (8)'s M/G/1 form.
    hop_variance: f64,
}

impl RingShape {
    /// A ring of `nodes` nodes whose packets take `paths` (every ordered
    /// pair of nodes once), counted at λ_n = `rate` packets per cycle per node.
    pub fn from_paths(paths: &[Vec<usize>], nodes: usize, bidirectional: bool, rate: f64) -> Self {
        let (mean_hops, hop_variance) = hop_count_moments(paths);
        // The paper rounds H_avg to the nearest integer (footnote 1).
        let h = (mean_hops.round() as usize).max(1);
        let (rates, _) = counted_stage_rates(paths, rate / (nodes - 1) as f64, h);
        RingShape { rates, rate, bidirectional, hop_variance }
    }

    /// 004_…'s multi-link ring by its size alone (no routers built):
    /// `nodes` nodes, `links` links each way, the first routing strategy.
    /// For rings the simulator cannot build (004_… Fig. 6(a)'s N = 256
    /// needs 129-port routers); `multilink_ring_paths` is checked against
    /// the built network's routes where it can be built.
    pub fn multilink_ring(nodes: usize, links: usize) -> Self {
        RingShape::from_paths(&multilink_ring_paths(nodes, links, false), nodes, true, 1.0)
    }

    /// The models' inputs at λ_n = `lambda_n` packets per cycle per node,
    /// v_c = `vcs` per header, `msg_flits` flits per packet.
    pub fn model(&self, lambda_n: f64, vcs: u32, msg_flits: f64) -> RingModel {
        RingModel {
            vcs,
            msg_flits,
            t_flit: 1.0,
            t_router: RING_STAGES - 1.0,
            // At the counted rate itself the rates are taken as counted.
            stage_rates: if lambda_n == self.rate { self.rates.clone() } else { self.rates.iter().map(|r| r * (lambda_n / self.rate)).collect() },
            // Eq. 8: one segmentation queue per direction.
            source_rate: if self.bidirectional { lambda_n / 2.0 } else { lambda_n },
            hop_variance: self.hop_variance,
        }
    }

    /// The plan of [`RingShape::model`] (no holding-time model).
    pub fn plan(&self, lambda_n: f64, vcs: u32, msg_flits: f64) -> Plan {
        Plan::Ring { model: self.model(lambda_n, vcs, msg_flits), stages: RING_STAGES, holding: None, eq8: SegQueue::MD1 }
    }
}

/// The model's answer as the simulator's `Results` (per-class latencies;
/// accepted throughput = offered load below saturation; frame metrics
/// empty).
pub fn to_results(v: &Validated, classes: &[ClassPrediction]) -> Results {
    let nan = MeanSd { n: 0, mean: f64::NAN, sd: f64::NAN };
    let mut stats: Vec<ClassStats> = classes
        .iter()
        .map(|c| ClassStats {
            class: c.class,
            latency: c.network_latency + c.source_latency,
            network_latency: c.network_latency,
            source_latency: c.source_latency,
            latency_ci95: f64::NAN,
            source_credit_stall: None,
            transfer_time: c.transfer_time,
            ..ClassStats::default()
        })
        .collect();
    stats.sort_by_key(|c| c.class);
    Results {
        name: v.exp.name.clone(),
        cycle_ns: v.cycle_s * 1e9,
        endpoints: v.net.endpoint_at.len(),
        routers: v.net.routers,
        offered_load: v.exp.workload.load,
        requested_load: v.exp.workload.load,
        accepted_throughput: v.exp.workload.load,
        classes: stats,
        frame_interval_ms: nan,
        deadline_miss_probability: f64::NAN,
        deadline_missing_time_ms: f64::NAN,
        ..Results::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::TopologySpec;

    #[test]
    fn source_block_paths_take_the_short_way_and_match_with_one_link() {
        let net = TopologySpec::MultilinkRing { nodes: 8, links: Some(2), dateline: true, strategy: Default::default() }.build(5).unwrap();
        let paths = source_block_paths(&net);
        let mut k = 0;
        for s in 0..8usize {
            for d in (0..8).filter(|&d| d != s) {
                let fwd = (d + 8 - s) % 8;
                assert_eq!(paths[k].len(), fwd.min(8 - fwd), "{s}->{d}");
                k += 1;
            }
        }
        // With one link per direction both strategies take the same links.
        let one = TopologySpec::MultilinkRing { nodes: 8, links: Some(1), dateline: true, strategy: Default::default() }.build(3).unwrap();
        let (a, b) = (counted_stage_rates(&source_block_paths(&one), 1.0, 2), counted_stage_rates(&route_paths(&one), 1.0, 2));
        assert_eq!(a, b);
        // With two, the stage rates differ (the links' loads are spread differently).
        assert_ne!(counted_stage_rates(&paths, 1.0, 2).0, counted_stage_rates(&route_paths(&net), 1.0, 2).0);
        // The simulator's tables for the second strategy (destination codes
        // "d via link j") take exactly these links.
        let second = TopologySpec::MultilinkRing { nodes: 8, links: Some(2), dateline: true, strategy: crate::topology::RingStrategy::SourceBlock }.build(5).unwrap();
        assert_eq!(route_paths(&second), paths);
    }

    /// `a` and `b` list the same links for every pair, up to the links' names.
    fn same_paths_up_to_names(a: &[Vec<usize>], b: &[Vec<usize>]) -> bool {
        let (mut ab, mut ba) = (std::collections::HashMap::new(), std::collections::HashMap::new());
        a.len() == b.len()
            && a.iter().zip(b).all(|(p, q)| {
                p.len() == q.len() && p.iter().zip(q).all(|(x, y)| *ab.entry(*x).or_insert(*y) == *y && *ba.entry(*y).or_insert(*x) == *x)
            })
    }

    #[test]
    fn multilink_ring_paths_are_the_built_networks_routes() {
        use crate::topology::RingStrategy;
        for (nodes, links) in [(8u32, 2u32), (16, 4), (32, 8), (60, 15)] {
            for (strategy, second) in [(RingStrategy::DestinationBlock, false), (RingStrategy::SourceBlock, true)] {
                let net = TopologySpec::MultilinkRing { nodes, links: Some(links), dateline: true, strategy }.build(2 * links as usize + 1).unwrap();
                let built = if second { source_block_paths(&net) } else { route_paths(&net) };
                let ours = multilink_ring_paths(nodes as usize, links as usize, second);
                assert!(same_paths_up_to_names(&ours, &built), "N = {nodes}, l = {links}, second strategy {second}");
            }
        }
        // A wrong link (d mod (l − 1)) or the ties taken − are told apart.
        let net = TopologySpec::MultilinkRing { nodes: 16, links: Some(4), dateline: true, strategy: RingStrategy::DestinationBlock }.build(9).unwrap();
        assert!(!same_paths_up_to_names(&multilink_ring_paths(16, 3, false), &route_paths(&net)));
    }
}
