//! Diagnostic codes of the `agent-card.json` probe (`docs/plugins/agent-card-json.md`). References
//! are to the A2A protocol specification ("Agent2Agent (A2A) Protocol", `AgentCard` and its parts).

/// Neither `url` (A2A 0.3) nor `supportedInterfaces` (A2A 1.0): no way to reach the agent (error).
pub const MISSING_INTERFACE: &str = "missing_interface";
/// An interface URL that is not an absolute URL (error; `AgentInterface.url` is an absolute URL).
pub const RELATIVE_INTERFACE_URL: &str = "relative_interface_url";
/// An interface URL that is not https (warning; A2A requires HTTPS in production).
pub const INSECURE_INTERFACE_URL: &str = "insecure_interface_url";
/// `provider` lacks `organization` or `url`, both REQUIRED in `AgentProvider` (error).
pub const INVALID_PROVIDER: &str = "invalid_provider";
/// A skill lacks one of `id`, `name`, `description`, `tags` (error; `AgentSkill`).
pub const INVALID_SKILL: &str = "invalid_skill";
/// A security scheme of no known type (warning; `SecurityScheme`).
pub const UNKNOWN_SECURITY_SCHEME: &str = "unknown_security_scheme";
/// An OAuth 2.0 / OpenID Connect URL of a security scheme that does not use https (error; RFC 6749
/// section 3.1, OpenID Connect Discovery section 4).
pub const INSECURE_ENDPOINT: &str = "insecure_endpoint";
/// An `openIdConnectUrl` that is not an OpenID Connect discovery URL, so no issuer can be derived
/// (warning; `OpenIdConnectSecurityScheme`).
pub const NOT_A_DISCOVERY_URL: &str = "not_a_discovery_url";

/// Every code this probe can emit, shared ones included, for the documentation test.
pub const ALL: &[&str] = &[
    MISSING_INTERFACE,
    RELATIVE_INTERFACE_URL,
    INSECURE_INTERFACE_URL,
    INVALID_PROVIDER,
    INVALID_SKILL,
    UNKNOWN_SECURITY_SCHEME,
    INSECURE_ENDPOINT,
    NOT_A_DISCOVERY_URL,
    "missing_<member>",
    "invalid_<member>",
    "invalid_content_type",
    "invalid_charset",
    "bom",
    "not_utf8",
    "invalid_utf8",
    "html_document",
    "invalid_json",
    "not_json_object",
    "duplicate_member",
    "too_large",
];
