//! Before any bot joins: resolve the server address and check that something is listening there, so a typo or a
//! stopped server ends the run with one clear line instead of an endless reconnect loop.

use std::time::Duration;

use azalea::protocol::address::{ResolvedAddr, ServerAddr};
use tokio::net::TcpStream;

use super::BotError;
use crate::config::ServerAddress;

const RESOLVE_TIMEOUT: Duration = Duration::from_secs(10);
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// Resolves `server` (with SRV records, as the vanilla client does) and opens, then closes, one TCP connection.
pub async fn preflight(server: &ServerAddress) -> Result<ResolvedAddr, BotError> {
    let addr = ServerAddr { host: server.host.clone(), port: server.port };
    let resolved = match tokio::time::timeout(RESOLVE_TIMEOUT, ResolvedAddr::new(addr)).await {
        Ok(Ok(resolved)) => resolved,
        Ok(Err(err)) => return Err(BotError::Resolve { server: server.to_string(), reason: err.to_string() }),
        Err(_) => return Err(BotError::Resolve { server: server.to_string(), reason: "lookup timed out".into() }),
    };
    match tokio::time::timeout(CONNECT_TIMEOUT, TcpStream::connect(resolved.socket)).await {
        Ok(Ok(_stream)) => Ok(resolved),
        Ok(Err(err)) => {
            Err(BotError::Unreachable { server: server.to_string(), socket: resolved.socket, reason: err.to_string() })
        }
        Err(_) => Err(BotError::Unreachable {
            server: server.to_string(),
            socket: resolved.socket,
            reason: format!("no answer within {}s", CONNECT_TIMEOUT.as_secs()),
        }),
    }
}
