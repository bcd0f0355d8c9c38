//! The HTTP side of `pbem web`: axum on hyper on a one-thread tokio runtime, with every way a client
//! could hold the server bounded.
//!
//! * One thread does all the network work; a client costs a small task, never a thread. The pages
//!   are made on at most [`WORKERS`] blocking threads (tokio's blocking pool, capped), each with its
//!   own read-only database connection (a `Db` is `Send`, not `Sync`: never shared).
//! * At most [`MAX_CONNECTIONS`] connections are held; further ones wait in the listen backlog.
//! * A request head must arrive within [`HEADER_TIMEOUT`] of the connection (or of the previous
//!   answer, for a kept-alive connection), [`HEADER_TIMEOUT_BUSY`] while fewer than a quarter of
//!   the connection slots are free; a write the client does not read for `stream::WRITE_STALL` ends the
//!   connection; no connection lives past [`CONNECTION_LIFETIME`] (then [`CLOSE_GRACE`] to finish an
//!   answer).
//! * At most [`MAX_IN_FLIGHT`] requests are handled at once (tower's concurrency limit; past it a 503
//!   page at once, tower's load shedding), each within [`REQUEST_TIMEOUT`] (tower's timeout; then a
//!   503 page).

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::{TcpListener, TcpSocket};
use tokio::sync::Semaphore;
use tower::ServiceBuilder;
use tower::limit::GlobalConcurrencyLimitLayer;

use super::stream::Guarded;
use super::{Page, answer, error_page};
use crate::config::Config;
use crate::games::Registry;
use crate::storage::Db;

/// Blocking threads that make pages, each with its own read-only database connection.
pub const WORKERS: usize = 2;
/// Connections held at once.
pub const MAX_CONNECTIONS: usize = 512;
/// Requests handled at once (the others wait in their connection or, past this, get a 503).
pub const MAX_IN_FLIGHT: usize = 64;
/// Time for a request head to arrive.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// The same while fewer than a quarter of the connection slots are free.
pub const HEADER_TIMEOUT_BUSY: Duration = Duration::from_secs(2);
/// Time to make a page once its request is read.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a connection is kept, however busy.
pub const CONNECTION_LIFETIME: Duration = Duration::from_secs(60);
/// After [`CONNECTION_LIFETIME`], the time to finish an answer under way.
pub const CLOSE_GRACE: Duration = Duration::from_secs(10);
/// Connections waiting in the kernel to be accepted.
const BACKLOG: u32 = 1024;
/// The kernel's send buffer of each connection (inherited from the listening socket; Linux doubles
/// it). Without it the buffer grows to megabytes for a client that does not read, so a write would
/// stall only after that much memory, and a page (30 KB) still leaves in one round trip.
const SEND_BUFFER: u32 = 32 * 1024;

/// What every request's handler needs.
#[derive(Clone)]
struct App {
    db_path: Arc<PathBuf>,
    busy: Duration,
    registry: Registry,
    /// The server's mail address, which the index gives newcomers.
    address: Arc<str>,
}

/// Runs the web server on `listen` (`host:port`) until the process is stopped; returns the exit
/// status when it cannot start. One stderr line says where it listens (with the port chosen, for
/// port 0). The pages are those of `registry`'s games. SIGTERM or SIGINT end the process at once:
/// it holds nothing that needs finishing.
pub fn run(cfg: &Config, listen: &str, registry: &Registry) -> i32 {
    let db_path = cfg.database.path.clone();
    let busy = Duration::from_millis(cfg.database.busy_timeout_ms);
    // Opened once here so that a missing or too old database is said at start, not on every page.
    if let Err(e) = Db::open_read_only(&db_path, busy) {
        eprintln!(
            "pbem: web: cannot read the database {}: {e} (pbem web only reads it: run any other \
             pbem command once to create it)",
            db_path.display()
        );
        return crate::exit::EX_UNAVAILABLE;
    }
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .enable_time()
        .max_blocking_threads(WORKERS)
        // A worker keeps its connection while it lives: keep idle workers a while.
        .thread_keep_alive(Duration::from_secs(300))
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("pbem: web: cannot start: {e}");
            return crate::exit::EX_SOFTWARE;
        }
    };
    let app = App {
        db_path: Arc::new(db_path),
        busy,
        registry: registry.clone(),
        address: Arc::from(cfg.server.address.as_str()),
    };
    runtime.block_on(async move {
        let listener = match bind(listen) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("pbem: web: cannot listen on {listen}: {e}");
                return crate::exit::EX_UNAVAILABLE;
            }
        };
        match listener.local_addr() {
            Ok(addr) => eprintln!("pbem web: listening on http://{addr}/"),
            Err(_) => eprintln!("pbem web: listening on {listen}"),
        }
        serve(listener, router(app)).await;
        crate::exit::EX_OK
    })
}

/// A listening socket on the first address of `listen` that takes one.
fn bind(listen: &str) -> std::io::Result<TcpListener> {
    let mut last = std::io::Error::new(std::io::ErrorKind::InvalidInput, "no address");
    for addr in listen.to_socket_addrs()? {
        match listen_on(addr) {
            Ok(l) => return Ok(l),
            Err(e) => last = e,
        }
    }
    Err(last)
}

fn listen_on(addr: SocketAddr) -> std::io::Result<TcpListener> {
    let socket = if addr.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    socket.set_reuseaddr(true)?;
    socket.set_send_buffer_size(SEND_BUFFER)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}

/// The pages, behind the limits on requests.
fn router(app: App) -> Router {
    limited(
        Router::new().fallback(handle).with_state(app),
        MAX_IN_FLIGHT,
        REQUEST_TIMEOUT,
    )
}

/// `pages` behind tower's layers: load shedding past `in_flight` requests at once, a `timeout` on
/// each, and either refusal as a 503 page.
fn limited(pages: Router, in_flight: usize, timeout: Duration) -> Router {
    pages.layer(
        ServiceBuilder::new()
            .layer(HandleErrorLayer::new(|_: tower::BoxError| async {
                respond(error_page(
                    503,
                    "The server is busy just now; try again in a moment.",
                ))
            }))
            .load_shed()
            // One count for the whole router: the plain layer counts each route apart, and axum
            // may apply a layer more than once.
            .layer(GlobalConcurrencyLimitLayer::new(in_flight))
            .timeout(timeout),
    )
}

/// Accepts connections for ever, at most [`MAX_CONNECTIONS`] at once.
async fn serve(listener: TcpListener, router: Router) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    loop {
        let Ok(slot) = Arc::clone(&slots).acquire_owned().await else {
            return; // never closed
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                eprintln!("pbem: web: {e}");
                // Out of file descriptors and the like: wait instead of spinning on the error.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let header_timeout = if slots.available_permits() < MAX_CONNECTIONS / 4 {
            HEADER_TIMEOUT_BUSY
        } else {
            HEADER_TIMEOUT
        };
        let service = TowerToHyperService::new(router.clone());
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder
                .timer(TokioTimer::new())
                .header_read_timeout(header_timeout);
            let conn = builder.serve_connection(TokioIo::new(Guarded::new(stream)), service);
            let mut conn = std::pin::pin!(conn);
            if tokio::time::timeout(CONNECTION_LIFETIME, conn.as_mut())
                .await
                .is_err()
            {
                conn.as_mut().graceful_shutdown();
                let _ = tokio::time::timeout(CLOSE_GRACE, conn).await;
            }
            drop(slot);
        });
    }
}

/// A GET or HEAD gets its page, made on a blocking worker; any other method a 405.
async fn handle(State(app): State<App>, request: Request) -> Response {
    if !matches!(*request.method(), Method::GET | Method::HEAD) {
        return respond(error_page(
            405,
            "These pages are read-only: only GET and HEAD are answered.",
        ));
    }
    let target = request
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    let mut job = AbortOnDrop(tokio::task::spawn_blocking(move || {
        on_worker(&app, &target)
    }));
    let page = match (&mut job.0).await {
        Ok(page) => page,
        Err(e) => {
            eprintln!("pbem: web: {e}");
            error_page(500, "The database cannot be read just now; try again.")
        }
    };
    respond(page)
}

/// A blocking task that is not started when its request is gone (timed out, client away).
struct AbortOnDrop(tokio::task::JoinHandle<Page>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

thread_local! {
    /// The read-only connection of this blocking worker, opened on its first page.
    static DB: std::cell::RefCell<Option<Db>> = const { std::cell::RefCell::new(None) };
}

/// The page for `target`, on this worker's own connection (reopened after a failure).
fn on_worker(app: &App, target: &str) -> Page {
    DB.with_borrow_mut(|db| {
        if db.is_none() {
            *db = Db::open_read_only(&app.db_path, app.busy)
                .map_err(|e| eprintln!("pbem: web: {}: {e}", app.db_path.display()))
                .ok();
        }
        match db.as_mut() {
            Some(d) => {
                let page = answer(d, &app.registry, &app.address, target);
                if page.status == 500 {
                    *db = None;
                }
                page
            }
            None => error_page(500, "The database cannot be read just now; try again."),
        }
    })
}

/// The HTTP answer of a page: its status, the HTML, and the headers every page has.
fn respond(page: Page) -> Response {
    let status = StatusCode::from_u16(page.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let content_type = HeaderValue::from_static(page.content_type);
    let mut response = (status, Body::from(page.html)).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, content_type);
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    // No script, no outside resource: even a text that slipped through escaping could not run.
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static("default-src 'none'; style-src 'unsafe-inline'"),
    );
    if status == StatusCode::METHOD_NOT_ALLOWED {
        headers.insert(header::ALLOW, HeaderValue::from_static("GET, HEAD"));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use tower::ServiceExt as _;

    /// The status and body of `router`'s answer to a GET of `/`.
    async fn call(router: Router) -> (StatusCode, String) {
        let response = router.oneshot(Request::new(Body::empty())).await.unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    /// A router whose page takes `millis` to make.
    fn slow(millis: u64) -> Router {
        Router::new().fallback(move || async move {
            tokio::time::sleep(Duration::from_millis(millis)).await;
            respond(error_page(404, "slow"))
        })
    }

    #[test]
    fn past_the_time_or_the_requests_in_flight_a_503_page() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        runtime.block_on(async {
            // In time: the page; too slow: the busy page, with the headers of every page.
            let (status, _) = call(limited(slow(10), 4, Duration::from_secs(5))).await;
            assert_eq!(status, StatusCode::NOT_FOUND);
            let router = limited(slow(2_000), 4, Duration::from_millis(100));
            let response = router.oneshot(Request::new(Body::empty())).await.unwrap();
            assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
            assert_eq!(
                response.headers()[header::CONTENT_TYPE],
                "text/html; charset=utf-8"
            );
            let (status, body) = call(limited(slow(2_000), 4, Duration::from_millis(100))).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
            assert!(body.contains("The server is busy just now"), "{body}");

            // One in flight: a second request at the same time is refused at once.
            let router = limited(slow(500), 1, Duration::from_secs(5));
            let first = tokio::spawn(call(router.clone()));
            tokio::time::sleep(Duration::from_millis(50)).await;
            let start = tokio::time::Instant::now();
            let (status, _) = call(router.clone()).await;
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
            assert!(start.elapsed() < Duration::from_millis(400));
            assert_eq!(first.await.unwrap().0, StatusCode::NOT_FOUND);
            // Once it is done, the next one is served.
            assert_eq!(call(router).await.0, StatusCode::NOT_FOUND);
        });
    }
}
