//! Everything fabsim writes: stdout ([`out!`](crate::out!) / [`outln!`](crate::outln!): a closed pipe ends quietly) and
//! output files ([`check_output`] before the work starts, [`write_output`] after it).

use std::collections::BTreeMap;
use std::fmt;
use std::fs::OpenOptions;
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::Error;

/// Writes `args` to stdout and flushes. A closed pipe (`fabsim ... | head -1`) ends the process
/// quietly with status 0; any other write error (e.g. `> /dev/full`) with a one-line error and
/// status 1. Use [`out!`](crate::out!) / [`outln!`](crate::outln!), never `print!` (which panics on both).
pub fn stdout(args: fmt::Arguments) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args).and_then(|()| out.flush()) {
        stdout_failed(e);
    }
}

fn stdout_failed(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("error: cannot write to stdout: {e}");
    std::process::exit(1);
}

/// `print!` through [`stdout`].
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::output::stdout(format_args!($($t)*)) };
}

/// `println!` through [`stdout`].
#[macro_export]
macro_rules! outln {
    () => { $crate::output::stdout(format_args!("\n")) };
    ($($t:tt)*) => { $crate::output::stdout(format_args!("{}\n", format_args!($($t)*))) };
}

/// How an output path is written.
enum Dest {
    /// `-`.
    Stdout,
    /// A new path or a regular file: a temporary file beside it, then a rename.
    Replace,
    /// A symlink, a FIFO, a device: opened and written in place (a rename would replace the
    /// link or the special file with a regular file).
    InPlace,
}

fn dest(path: &Path) -> Result<Dest, Error> {
    if path == Path::new("-") {
        return Ok(Dest::Stdout);
    }
    let refuse =
        |why: String| Error::Usage(format!("{}: cannot write output: {why}", path.display()));
    // `out.json/` names a directory: refused now, not by the rename after the work.
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") && !path.is_dir() {
        return Err(refuse(
            "ends in `/`, so it names a directory: give a file name".into(),
        ));
    }
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_file() => Ok(Dest::Replace),
        // `is_dir` follows symlinks: a link to a directory is refused too.
        Ok(_) if path.is_dir() => Err(refuse("is a directory".into())),
        // A dangling symlink is written through (creating its target): its target's
        // directory must exist.
        Ok(m) if m.file_type().is_symlink() && !path.exists() => {
            let target = std::fs::read_link(path).map_err(|e| refuse(e.to_string()))?;
            let target = path.parent().unwrap_or(Path::new(".")).join(target);
            match target.parent() {
                Some(d) if !d.as_os_str().is_empty() && !d.is_dir() => Err(refuse(format!(
                    "a symlink to {}, in no directory {}",
                    target.display(),
                    d.display()
                ))),
                _ => Ok(Dest::InPlace),
            }
        }
        Ok(_) => Ok(Dest::InPlace),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let parent = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p,
                _ => Path::new("."),
            };
            if parent.is_dir() {
                Ok(Dest::Replace)
            } else {
                Err(refuse(format!("no directory {}", parent.display())))
            }
        }
        Err(e) => Err(refuse(e.to_string())),
    }
}

/// Checks, before any work is done, that [`write_output`] can write each of `paths` (flag,
/// path): `-`, a new file in an existing directory, a regular file, or a symlink / FIFO /
/// device (written in place). A directory, a missing directory (a dangling symlink's
/// included), a path ending in `/` or a directory that refuses a new file is a usage error
/// naming the path; so are two flags writing one file, and an output that is one of the
/// command's `inputs` (what it is, path: the scenario file, `workload.file`, ...), which it
/// would overwrite.
pub fn check_outputs(paths: &[(&str, &Path)], inputs: &[(&str, &Path)]) -> Result<(), Error> {
    let canon = |p: &Path| std::fs::canonicalize(p).ok();
    let same = |a: &Path, b: &Path| a == b || canon(a).is_some_and(|x| Some(x) == canon(b));
    for (i, (flag, a)) in paths.iter().enumerate() {
        check_output(a)?;
        if *a == Path::new("-") {
            continue;
        }
        for (other, b) in &paths[..i] {
            if same(a, b) {
                return Err(Error::Usage(format!(
                    "{other} and {flag} both write {}: give each its own file",
                    a.display()
                )));
            }
        }
        if let Some((what, _)) = inputs.iter().find(|(_, b)| same(a, b)) {
            return Err(Error::Usage(format!(
                "{flag} {}: is {what}, which this command reads: writing it would \
                 overwrite its input; give the output its own file",
                a.display()
            )));
        }
    }
    Ok(())
}

/// Removes the temporary files a killed fabsim left beside `path` (`.NAME.HOST.PID.tmp` of
/// this host whose process is gone; Linux, where /proc tells), saying so on stderr.
fn remove_stale_temps(path: &Path) {
    let (Some(name), Some(dir)) = (path.file_name(), path.parent()) else {
        return;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if !Path::new("/proc/self").exists() {
        return;
    }
    let prefix = format!(".{}.{}.", name.to_string_lossy(), hostname());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let pid = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok());
        if let Some(pid) = pid.filter(|p| !Path::new(&format!("/proc/{p}")).exists()) {
            if std::fs::remove_file(e.path()).is_ok() {
                eprintln!(
                    "removed {}: a partial output of fabsim process {pid}, which was killed",
                    e.path().display()
                );
            }
        }
    }
}

/// [`check_outputs`] for one output.
pub fn check_output(path: &Path) -> Result<(), Error> {
    remove_stale_temps(path);
    if let Dest::Replace = dest(path)? {
        let tmp = temp_beside(path);
        // The file is replaced through a new one beside it: that is what must be possible.
        std::fs::File::create(&tmp).map_err(|e| {
            let dir = tmp.parent().map_or(".".into(), |d| d.display().to_string());
            Error::Usage(format!(
                "{}: cannot write output: cannot create a file in {dir} ({e})",
                path.display()
            ))
        })?;
        let _ = std::fs::remove_file(&tmp);
    }
    Ok(())
}

/// Writes `contents` to `path` (see [`check_output`]), or to stdout for `-`. A regular file
/// is replaced atomically (temporary file beside it, then a rename), so an interrupted run
/// never leaves a partial file that looks complete.
pub fn write_output(path: &Path, contents: &str) -> Result<(), Error> {
    if let Dest::Stdout = dest(path)? {
        outln!("{contents}");
        return Ok(());
    }
    OutputFile::create(path)?.write_whole(contents, false)
}

/// An output written as it is produced, where [`write_output`] would write it: stdout for
/// `-` (as is: no newline added), a symlink, FIFO or device in place, and anything else
/// through a temporary file beside it that [`OutputFile::finish`] renames to it. Dropped
/// unfinished (an error on the way) or interrupted by a signal, it leaves no file behind.
pub struct OutputFile {
    path: PathBuf,
    sink: Option<Sink>,
}

enum Sink {
    Stdout,
    InPlace(io::BufWriter<std::fs::File>),
    /// The temporary file, registered in [`WRITING`].
    Temp(PathBuf, io::BufWriter<std::fs::File>),
}

/// `p` opened for writing from its start.
fn open(p: &Path) -> io::Result<io::BufWriter<std::fs::File>> {
    OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(p)
        .map(io::BufWriter::new)
}

impl OutputFile {
    pub fn create(path: &Path) -> Result<Self, Error> {
        let sink = match dest(path)? {
            Dest::Stdout => Sink::Stdout,
            Dest::InPlace => Sink::InPlace(open(path).map_err(|e| Error::io(path, "write", e))?),
            Dest::Replace => return Self::through(path, temp_beside(path)),
        };
        Ok(OutputFile {
            path: path.to_path_buf(),
            sink: Some(sink),
        })
    }

    /// Written to `tmp` (on `path`'s file system; its directory is made if missing), which
    /// the finish renames to `path`.
    fn through(path: &Path, tmp: PathBuf) -> Result<Self, Error> {
        writing().push(tmp.clone());
        let opened = match tmp.parent() {
            Some(dir) => std::fs::create_dir_all(dir),
            None => Ok(()),
        }
        .and_then(|()| open(&tmp));
        match opened {
            Ok(f) => Ok(OutputFile {
                path: path.to_path_buf(),
                sink: Some(Sink::Temp(tmp, f)),
            }),
            Err(e) => {
                writing().retain(|t| *t != tmp);
                Err(Error::io(path, "write", e))
            }
        }
    }

    /// `contents`, then [`OutputFile::close`].
    fn write_whole(mut self, contents: &str, durable: bool) -> Result<(), Error> {
        self.write_all(contents.as_bytes())
            .map_err(|e| Error::io(&self.path, "write", e))?;
        self.close(durable)
    }

    /// Flushes the output and, for a temporary file, renames it to the path.
    pub fn finish(self) -> Result<(), Error> {
        self.close(false)
    }

    /// [`OutputFile::finish`]; `durable`: a temporary file is synced to disk before the
    /// rename.
    fn close(mut self, durable: bool) -> Result<(), Error> {
        let fail = |e| Error::io(&self.path, "write", e);
        match self.sink.take().expect("finished once") {
            Sink::Stdout => io::stdout().flush().unwrap_or_else(|e| stdout_failed(e)),
            Sink::InPlace(mut f) => f.flush().map_err(fail)?,
            Sink::Temp(tmp, f) => {
                let done = f
                    .into_inner()
                    .map_err(|e| e.into_error())
                    .and_then(|f| if durable { f.sync_all() } else { Ok(()) })
                    .and_then(|()| std::fs::rename(&tmp, &self.path));
                if done.is_err() {
                    let _ = std::fs::remove_file(&tmp);
                }
                writing().retain(|t| *t != tmp);
                done.map_err(fail)?
            }
        }
        Ok(())
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(Sink::Temp(tmp, _)) = self.sink.take() {
            let _ = std::fs::remove_file(&tmp);
            writing().retain(|t| *t != tmp);
        }
    }
}

impl io::Write for OutputFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.sink.as_mut().expect("not finished") {
            Sink::Stdout => {
                io::stdout()
                    .write_all(buf)
                    .unwrap_or_else(|e| stdout_failed(e));
                Ok(buf.len())
            }
            Sink::InPlace(f) | Sink::Temp(_, f) => f.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.sink.as_mut().expect("not finished") {
            Sink::Stdout => Ok(()),
            Sink::InPlace(f) | Sink::Temp(_, f) => f.flush(),
        }
    }
}

/// Items numbered 0, 1, ... that arrive in any order (the runs of a sweep, as they finish),
/// handed on in their order: each as soon as every one before it was.
pub(crate) struct InOrder<T> {
    next: usize,
    waiting: BTreeMap<usize, T>,
}

impl<T> Default for InOrder<T> {
    fn default() -> Self {
        InOrder {
            next: 0,
            waiting: BTreeMap::new(),
        }
    }
}

impl<T> InOrder<T> {
    /// Item `i`; hands every item now due to `emit`, with its number.
    pub(crate) fn add(&mut self, i: usize, item: T, mut emit: impl FnMut(usize, T)) {
        self.waiting.insert(i, item);
        while let Some(item) = self.waiting.remove(&self.next) {
            emit(self.next, item);
            self.next += 1;
        }
    }

    /// How many items were handed on.
    pub(crate) fn emitted(&self) -> usize {
        self.next
    }

    /// Whether some item waits for one before it.
    pub(crate) fn waiting(&self) -> bool {
        !self.waiting.is_empty()
    }
}

/// Text made per run, written to an output (as [`OutputFile`] writes it) in run order as
/// the runs finish: a run's text goes out as soon as every run before it is out.
pub struct RunsText {
    path: PathBuf,
    state: Mutex<(InOrder<String>, OutputFile, Option<io::Error>)>,
}

impl RunsText {
    pub fn create(path: &Path) -> Result<Self, Error> {
        Ok(RunsText {
            path: path.to_path_buf(),
            state: Mutex::new((InOrder::default(), OutputFile::create(path)?, None)),
        })
    }

    /// Run `run`'s text.
    pub fn add(&self, run: usize, text: String) {
        let mut guard = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let (order, out, failed) = &mut *guard;
        order.add(run, text, |_, text| {
            if let Err(e) = out.write_all(text.as_bytes()) {
                failed.get_or_insert(e);
            }
        });
    }

    /// Once every run was added: the whole output.
    pub fn finish(self) -> Result<(), Error> {
        let (order, out, failed) = self.state.into_inner().unwrap_or_else(|p| p.into_inner());
        debug_assert!(!order.waiting(), "a run's text was never written");
        match failed {
            Some(e) => Err(Error::io(&self.path, "write", e)),
            None => out.finish(),
        }
    }
}

/// The temporary files being written now: what [`remove_temps_on_signals`]'s handler removes.
static WRITING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// On SIGINT, SIGTERM or SIGHUP: removes the temporary files being written, then exits with
/// status 130, so that an interrupted command leaves no partial output (a SIGKILL still can:
/// the next command writing that output removes it, see `remove_stale_temps`).
pub fn remove_temps_on_signals() {
    // The handler runs on a thread of its own, not in signal context: it may lock.
    let _ = ctrlc::set_handler(|| {
        for tmp in writing().iter() {
            let _ = std::fs::remove_file(tmp);
        }
        eprintln!("interrupted");
        std::process::exit(130);
    });
}

/// Writes `contents` to `tmp` (same file system as `path`), then renames it to `path`:
/// readers see either no file or the whole file; `tmp` is removed on failure or on a signal.
/// `durable`: fsync before the rename.
pub fn write_atomic(path: &Path, tmp: &Path, contents: &str, durable: bool) -> Result<(), Error> {
    OutputFile::through(path, tmp.to_path_buf())?.write_whole(contents, durable)
}

fn writing() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while holding the list cannot leave it inconsistent: use it as it is.
    WRITING.lock().unwrap_or_else(|p| p.into_inner())
}

fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .ok()
        .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or_else(|| "host".into())
}

/// `NAME.HOST.PID`: unique per process, even on a shared file system.
pub fn temp_name(path: &Path) -> String {
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    format!("{name}.{}.{}", hostname(), std::process::id())
}

/// The temporary file `path` is written as before the rename: beside it, hidden
/// (`.NAME.HOST.PID.tmp`).
fn temp_beside(path: &Path) -> PathBuf {
    path.with_file_name(format!(".{}.tmp", temp_name(path)))
}
