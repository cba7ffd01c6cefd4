//! Network simulator: topologies of golden-model routers, the papers'
//! workloads and metrics (issue 5).
