//! TLS for both directions through the system's OpenSSL (native-tls): the
//! system's trusted roots plus, if the host names one, a PEM file of extra
//! certificates (a server with a self-signed certificate).

use super::config::ServerConfig;
use super::Failure;

/// The extra trusted certificates named by `ca_file`, as PEM bytes.
pub(crate) fn extra_roots(c: &ServerConfig) -> Result<Option<Vec<u8>>, Failure> {
    let Some(path) = &c.ca_file else {
        return Ok(None);
    };
    let pem = std::fs::read(path)
        .map_err(|e| Failure::Config(format!("ca_file {}: {e}", path.display())))?;
    Ok(Some(pem))
}

pub(crate) fn connector(c: &ServerConfig) -> Result<native_tls::TlsConnector, Failure> {
    let mut b = native_tls::TlsConnector::builder();
    b.min_protocol_version(Some(native_tls::Protocol::Tlsv12));
    if let Some(pem) = extra_roots(c)? {
        let certs = native_tls::Certificate::stack_from_pem(&pem).map_err(|e| {
            Failure::Config(format!(
                "ca_file {}: not PEM certificates: {e}",
                c.ca_file
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default()
            ))
        })?;
        for cert in certs {
            b.add_root_certificate(cert);
        }
    }
    b.build()
        .map_err(|e| Failure::Config(format!("cannot set up TLS: {e}")))
}
