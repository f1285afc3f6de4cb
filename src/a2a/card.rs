//! Agent cards (`/.well-known/agent-card.json`) for A2A 1.0 and 0.3 from one description of
//! the agent ([`AgentDescription::card`]); the field mapping is in `docs/a2a-1.0-wire.md` §3.

use serde_json::{json, Map, Value};

use super::A2aVersion;

/// Who provides an agent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Provider {
    /// The organisation's name.
    pub organization: String,
    /// Its website.
    pub url: String,
}

/// One thing an agent can do (an A2A `AgentSkill`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Skill {
    /// A unique id.
    pub id: String,
    /// A human-readable name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Keywords.
    pub tags: Vec<String>,
    /// Example prompts.
    pub examples: Vec<String>,
    /// Media types it accepts, when they differ from the agent's.
    pub input_modes: Vec<String>,
    /// Media types it produces, when they differ from the agent's.
    pub output_modes: Vec<String>,
}

/// An agent as its cards describe it, in the terms both A2A versions share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentDescription {
    /// The agent's name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// The agent's own version.
    pub version: String,
    /// The JSON-RPC endpoint.
    pub url: String,
    /// Who provides it.
    pub provider: Option<Provider>,
    /// Its documentation.
    pub documentation_url: Option<String>,
    /// Its icon.
    pub icon_url: Option<String>,
    /// Whether it streams (`SendStreamingMessage` / `message/stream`). Default `true`.
    pub streaming: bool,
    /// Whether it sends push notifications. Default `false`.
    pub push_notifications: bool,
    /// Media types it accepts. Default `["text/plain"]`.
    pub default_input_modes: Vec<String>,
    /// Media types it produces. Default `["text/plain"]`.
    pub default_output_modes: Vec<String>,
    /// What it can do.
    pub skills: Vec<Skill>,
}

impl AgentDescription {
    /// An agent that streams text, with no skills listed yet.
    pub fn new(
        name: impl Into<String>,
        description: impl Into<String>,
        version: impl Into<String>,
        url: impl Into<String>,
    ) -> Self {
        AgentDescription {
            name: name.into(),
            description: description.into(),
            version: version.into(),
            url: url.into(),
            provider: None,
            documentation_url: None,
            icon_url: None,
            streaming: true,
            push_notifications: false,
            default_input_modes: vec!["text/plain".into()],
            default_output_modes: vec!["text/plain".into()],
            skills: Vec::new(),
        }
    }

    /// The agent card of A2A `version`: 1.0 lists the endpoint in `supportedInterfaces`
    /// (`protocolBinding: "JSONRPC"`, `protocolVersion: "1.0"`) and leaves out empty lists and
    /// absent fields, as its serializers do; 0.3 has `protocolVersion: "0.3.0"`, `url` and
    /// `preferredTransport: "JSONRPC"`.
    ///
    /// # Example
    ///
    /// ```
    /// use agentwire::a2a::{A2aVersion, AgentDescription};
    ///
    /// let agent = AgentDescription::new("Weather", "Forecasts", "1.0.0", "https://w.example/a2a");
    /// let card = agent.card(A2aVersion::V1_0);
    /// assert_eq!(card["supportedInterfaces"][0]["protocolVersion"], "1.0");
    /// assert_eq!(agent.card(A2aVersion::V0_3)["preferredTransport"], "JSONRPC");
    /// ```
    pub fn card(&self, version: A2aVersion) -> Value {
        let v1 = version == A2aVersion::V1_0;
        let mut card = Map::new();
        if !v1 {
            card.insert("protocolVersion".into(), json!("0.3.0"));
        }
        card.insert("name".into(), json!(self.name));
        card.insert("description".into(), json!(self.description));
        if v1 {
            card.insert(
                "supportedInterfaces".into(),
                json!([{"url": self.url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]),
            );
        } else {
            card.insert("url".into(), json!(self.url));
            card.insert("preferredTransport".into(), json!("JSONRPC"));
        }
        if let Some(p) = &self.provider {
            card.insert(
                "provider".into(),
                json!({"organization": p.organization, "url": p.url}),
            );
        }
        card.insert("version".into(), json!(self.version));
        if let Some(u) = &self.documentation_url {
            card.insert("documentationUrl".into(), json!(u));
        }
        card.insert(
            "capabilities".into(),
            json!({"streaming": self.streaming, "pushNotifications": self.push_notifications}),
        );
        card.insert("defaultInputModes".into(), json!(self.default_input_modes));
        card.insert(
            "defaultOutputModes".into(),
            json!(self.default_output_modes),
        );
        let skills: Vec<Value> = self.skills.iter().map(|s| skill(s, v1)).collect();
        // 1.0 leaves out an empty list; 0.3 requires `skills`.
        if !(v1 && skills.is_empty()) {
            card.insert("skills".into(), Value::Array(skills));
        }
        if let Some(u) = &self.icon_url {
            card.insert("iconUrl".into(), json!(u));
        }
        Value::Object(card)
    }

    /// The card one endpoint serves to clients of both versions, as `a2a-sdk` 1.x serves it
    /// (`agent_card_to_dict`): the 1.0 card listing the JSON-RPC endpoint for 1.0 and for 0.3 in
    /// `supportedInterfaces`, with the 0.3 card's fields it lacks added (`protocolVersion`
    /// `"0.3"`, `url`, `preferredTransport`, and within objects and list items alike). A 1.x client
    /// reads the interfaces, a 0.3 client the 0.3 fields.
    pub fn card_for_both(&self) -> Value {
        let mut card = self.card(A2aVersion::V1_0);
        if let Value::Object(map) = &mut card {
            map.insert(
                "supportedInterfaces".into(),
                json!([
                    {"url": self.url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                    {"url": self.url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
                ]),
            );
        }
        let mut v03 = self.card(A2aVersion::V0_3);
        if let Value::Object(map) = &mut v03 {
            // The SDK's conversion takes the version of the 0.3 interface, Major.Minor.
            map.insert("protocolVersion".into(), json!("0.3"));
        }
        merge_missing(&mut card, v03);
        card
    }
}

/// Adds to `into` what `from` has and it lacks: keys of objects, recursively, and the same for
/// list items at the same positions (the merge `a2a-sdk` applies to its two cards).
fn merge_missing(into: &mut Value, from: Value) {
    match (into, from) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(&k) {
                    None => {
                        a.insert(k, v);
                    }
                    Some(existing) => merge_missing(existing, v),
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (x, y) in a.iter_mut().zip(b) {
                merge_missing(x, y);
            }
        }
        _ => {}
    }
}

fn skill(s: &Skill, v1: bool) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(s.id));
    out.insert("name".into(), json!(s.name));
    out.insert("description".into(), json!(s.description));
    for (key, list) in [
        ("tags", &s.tags),
        ("examples", &s.examples),
        ("inputModes", &s.input_modes),
        ("outputModes", &s.output_modes),
    ] {
        // 0.3 requires `tags`; otherwise empty lists are left out.
        if !list.is_empty() || (key == "tags" && !v1) {
            out.insert(key.into(), json!(list));
        }
    }
    Value::Object(out)
}
