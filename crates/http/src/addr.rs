//! Which IP addresses a scan must not connect to without `allow_private`.
//!
//! Checked after DNS resolution (and `--resolve` overrides) on every hop, so a public name that
//! points at an internal address, or a redirect to one, is refused the same way.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Why an address is refused, or `None` when it is an ordinary public address.
///
/// Refused: unspecified (`0.0.0.0/8`, `::`), loopback (`127/8`, `::1`), private (RFC 1918
/// `10/8`, `172.16/12`, `192.168/16`), shared CGNAT space (RFC 6598 `100.64/10`), link-local
/// (`169.254/16`, `fe80::/10`), cloud metadata (`169.254.169.254`, `fd00:ec2::254`), unique local
/// (RFC 4193 `fc00::/7`), multicast (`224/4`, `ff00::/8`), the IPv4 broadcast address and the
/// reserved `240/4`. Documentation ranges (RFC 5737, RFC 3849) are allowed. IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`) and NAT64 (`64:ff9b::a.b.c.d`, RFC 6052)
/// IPv6 addresses are judged as their IPv4 form.
pub fn forbidden_reason(ip: IpAddr) -> Option<&'static str> {
    match ip {
        IpAddr::V4(v4) => v4_reason(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return v4_reason(v4);
            }
            v6_reason(v6)
        }
    }
}

fn v4_reason(ip: Ipv4Addr) -> Option<&'static str> {
    let o = ip.octets();
    if ip == Ipv4Addr::new(169, 254, 169, 254) {
        Some("cloud metadata address")
    } else if o[0] == 0 {
        Some("unspecified address")
    } else if ip.is_loopback() {
        Some("loopback address")
    } else if ip.is_private() {
        Some("private address (RFC 1918)")
    } else if o[0] == 100 && (o[1] & 0xC0) == 64 {
        Some("shared address space (RFC 6598, CGNAT)")
    } else if ip.is_link_local() {
        Some("link-local address")
    } else if ip.is_broadcast() {
        Some("broadcast address")
    } else if ip.is_multicast() {
        Some("multicast address")
    } else if o[0] >= 240 {
        Some("reserved address (240/4)")
    } else {
        None
    }
}

fn v6_reason(ip: Ipv6Addr) -> Option<&'static str> {
    let s = ip.segments();
    if ip == Ipv6Addr::new(0xfd00, 0x0ec2, 0, 0, 0, 0, 0, 0x0254) {
        Some("cloud metadata address")
    } else if ip.is_unspecified() {
        Some("unspecified address")
    } else if ip.is_loopback() {
        Some("loopback address")
    } else if (s[0] & 0xfe00) == 0xfc00 {
        Some("unique local address (RFC 4193)")
    } else if (s[0] & 0xffc0) == 0xfe80 {
        Some("link-local address")
    } else if ip.is_multicast() {
        Some("multicast address")
    } else if s[..6] == [0, 0, 0, 0, 0, 0] || s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
        // Deprecated IPv4-compatible form ::a.b.c.d, and the NAT64 well-known prefix
        // 64:ff9b::/96 (RFC 6052), which a NAT64 gateway turns into a.b.c.d: judge that address.
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        v4_reason(Ipv4Addr::new(a, b, c, d))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(s: &str) -> Option<&'static str> {
        forbidden_reason(s.parse().unwrap())
    }

    #[test]
    fn refuses_internal_ranges() {
        for ip in [
            "127.0.0.1",
            "127.255.0.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "100.64.0.1",
            "100.127.255.254",
            "169.254.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "240.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fd00:ec2::254",
            "fe80::1",
            "febf::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "::127.0.0.1",
            "64:ff9b::10.0.0.1",
            "64:ff9b::a9fe:a9fe",
        ] {
            assert!(reason(ip).is_some(), "{ip} allowed");
        }
        assert_eq!(reason("169.254.169.254"), Some("cloud metadata address"));
        assert_eq!(reason("fd00:ec2::254"), Some("cloud metadata address"));
        assert_eq!(reason("::ffff:127.0.0.1"), Some("loopback address"));
    }

    #[test]
    fn allows_public_and_documentation_ranges() {
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "172.32.0.1",
            "172.15.255.255",
            "100.128.0.1",
            "100.63.255.255",
            "192.0.2.1",
            "198.51.100.7",
            "203.0.113.9",
            "2001:db8::1",
            "2606:4700::1111",
            "::ffff:93.184.216.34",
            "64:ff9b::93.184.216.34",
            "fec0::1",
        ] {
            assert_eq!(reason(ip), None, "{ip} refused");
        }
    }
}
