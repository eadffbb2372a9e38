//! The join's plan: what is counted, in what tasks, and what each costs, before any pair of
//! half-boards is counted. The units (sets of west rows) and the layouts they are joined
//! under (`layout`), their grouping into numbered tasks and the plan that answers for them
//! (`tasks`); the weights that balance the tasks: a unit's from its sides' estimated
//! half-boards (`weight`, `odds`, `holds`), and from n = 24 a partitioned unit's (`partition`,
//! `patterns`, `shares`, the cut diagonals it is split on, `cuts`); the quarter table of one
//! row set a thread builds from n = 26 (`slice`) and what the engine holds (`memory`).
//!
//! Its files use the count's (`super::count`) only for what the plan sizes: the half-boards
//! a side makes, the buckets an index cuts, the pieces it joins in.

pub(super) mod cuts;
pub(super) mod holds;
pub(super) mod layout;
pub(super) mod memory;
pub(super) mod odds;
pub(super) mod partition;
pub(super) mod patterns;
pub(super) mod shares;
pub(super) mod slice;
pub(super) mod tasks;
pub(super) mod weight;
