//! An engine that knows which form of the robot's name it hands its parser.
//!
//! The manifest's `agent` says it, not the adapter process; so [`super::open`] wraps every engine
//! it starts from a manifest in [`Handing`], which answers [`Engine::agent_form`] and passes all
//! else through, and every result can then say what the parser was actually handed.

use robotstxt_suite::engine::AgentForm;
use robotstxt_suite::engine::{Engine, Failure, Handshake, Query, Reply, SharedRequest};

/// `inner`, handing its parser the agent in `form`.
pub struct Handing {
    inner: Box<dyn Engine>,
    form: AgentForm,
}

impl Handing {
    pub fn new(inner: Box<dyn Engine>, form: AgentForm) -> Handing {
        Handing { inner, form }
    }
}

impl Engine for Handing {
    fn handshake(&self) -> &Handshake {
        self.inner.handshake()
    }

    fn check(&mut self, id: &str, robots: &[u8], queries: &[Query]) -> Result<Reply, Failure> {
        self.inner.check(id, robots, queries)
    }

    fn check_shared(
        &mut self,
        id: &str,
        robots: &[u8],
        queries: &[Query],
        shared: &SharedRequest,
    ) -> Result<Reply, Failure> {
        self.inner.check_shared(id, robots, queries, shared)
    }

    fn unavailable(&self) -> Option<&robotstxt_suite::visible::Outside> {
        self.inner.unavailable()
    }

    fn agent_form(&self) -> Option<AgentForm> {
        Some(self.form)
    }

    fn fresh_start(&mut self) {
        self.inner.fresh_start();
    }

    fn set_patience(&mut self, times: u32) {
        self.inner.set_patience(times);
    }
}
