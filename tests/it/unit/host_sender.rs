//! `host::sender`: whose From the host believes (RFC 8601's
//! Authentication-Results, the topmost field of a trusted authserv-id).

use herald::host::sender::{topmost_results, Proof, Sender};

fn ids() -> Vec<String> {
    vec!["mx.host.test".to_string()]
}

fn head(fields: &str) -> Vec<u8> {
    format!("{fields}From: Ann <ann@mail.example.org>\r\nSubject: x\r\n\r\nAuthentication-Results: mx.host.test; dmarc=pass header.from=mail.example.org\r\n").into_bytes()
}

#[test]
fn the_topmost_field_of_a_trusted_server_vouches() {
    let from = "ann@mail.example.org";
    let m = head("Received: by mx.host.test\r\nAuthentication-Results: mx.host.test;\r\n\tdkim=pass (good signature) header.d=example.org header.s=s1;\r\n spf=fail\r\n");
    let s = Sender::of(&m, from, &ids());
    assert_eq!(
        s.proof,
        Proof::Vouched {
            authserv_id: "mx.host.test".into(),
            method: "dkim".into()
        }
    );
    let m = head("Authentication-Results: MX.host.test 1; dmarc = pass (p=reject) header.from = mail.example.org\r\n");
    assert!(Sender::of(&m, from, &ids()).vouched());
}

#[test]
fn anything_else_is_a_claim() {
    let from = "ann@mail.example.org";
    let t = ids();
    for fields in [
        // No field at all (the one in the body is not the header's).
        "",
        // Another server's.
        "Authentication-Results: mx.evil.test; dmarc=pass header.from=mail.example.org\r\n",
        // A failure on top, a forged pass below it.
        "Authentication-Results: mx.host.test; dkim=fail header.d=example.org\r\nAuthentication-Results: mx.host.test; dkim=pass header.d=example.org\r\n",
        // Not aligned: signed by another domain, or by a bare suffix.
        "Authentication-Results: mx.host.test; dkim=pass header.d=evil.test\r\n",
        "Authentication-Results: mx.host.test; dkim=pass header.d=org\r\n",
        "Authentication-Results: mx.host.test; dkim=pass header.d=ample.org\r\n",
        // DMARC for another From domain, or without one.
        "Authentication-Results: mx.host.test; dmarc=pass header.from=evil.test\r\n",
        "Authentication-Results: mx.host.test; dmarc=pass\r\n",
        // The pass is inside a comment.
        "Authentication-Results: mx.host.test; none (dkim=pass header.d=example.org)\r\n",
        "Authentication-Results: mx.host.test; none\r\n",
    ] {
        let s = Sender::of(&head(fields), from, &t);
        assert_eq!(s.proof, Proof::Claimed, "{fields}");
    }
    // No authserv-id in host.toml: nothing is believed.
    let m =
        head("Authentication-Results: mx.host.test; dmarc=pass header.from=mail.example.org\r\n");
    assert!(!Sender::of(&m, from, &[]).vouched());
    // No From domain.
    assert!(!Sender::of(&m, "", &t).vouched());
}

#[test]
fn hostile_headers_cost_linear_time() {
    let mut m = Vec::new();
    for _ in 0..100_000 {
        m.extend_from_slice(b"X-Junk: ((((((((((\r\n");
    }
    m.extend_from_slice(
        b"Authentication-Results: mx.host.test; dmarc=pass header.from=example.org\r\n\r\n",
    );
    // Past the fields read: not found.
    assert!(topmost_results(&m).is_none());
    let deep = format!(
        "Authentication-Results: mx.host.test; dmarc=pass {} header.from=example.org\r\n\r\n",
        "(".repeat(100_000)
    );
    assert!(!Sender::of(deep.as_bytes(), "a@example.org", &ids()).vouched());
}
