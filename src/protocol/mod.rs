//! The Agent API model of AgentScope Runtime.
