// The confined file layer (issue 29): the one way the product touches a path that a folder, a file
// or a setting names. A `FileRoots` is the set of folders such a path may live in (the opened
// folders, a model's or a plan's folder, the doctor's `--root`); every method takes a path and gives
// back an opened handle, bytes, a listing — or a FileAccessError whose message is one sentence naming
// the path and why it was refused, and never a byte of the refused file.
//
// - Reads resolve every link and refuse a path whose real location is outside every root
//   (`labels.json -> ~/.ssh/id_rsa` is refused before it is opened). The file is then opened by its
//   real path with O_NOFOLLOW, and the object actually opened is checked, not the path: on Linux the
//   kernel's own path of the descriptor (readlink /proc/self/fd/N) must lie inside a root, so a
//   folder on the way swapped for a link between the check and the open is refused
//   (`changed`), the descriptor closed, nothing read. Folders listed are opened and checked the same
//   way. Without /proc (macOS, Windows, a container without it) the (device, inode) the check saw
//   must be the opened file's and the real path must still be link-free after the open: a swap
//   that stays is caught; two swaps timed around the open are not (and a listing then reads the
//   folder by its path). The walk, on Linux, enters each folder through its parent's descriptor
//   without following a link, so a folder swapped mid-walk is not entered; without /proc it walks
//   by path. stat and exists answer from the checked path everywhere (a racing swap can reveal a
//   size or a kind, never bytes).
// - Writes never follow a link at any component: the path must lie lexically inside a root and
//   every folder from the root down must be a real folder (a link, even one leading back inside, is
//   refused); missing folders are made one at a time the same way. On Linux the folders are opened
//   one by one from the root's descriptor (O_DIRECTORY|O_NOFOLLOW through /proc/self/fd/N/<name>,
//   an openat), and the file is written to a fresh O_EXCL|O_NOFOLLOW temporary name in the last
//   folder's descriptor and renamed into place through it: a folder renamed or swapped for a link
//   mid-write cannot move the write outside — it lands in the folder that was checked. Without
//   /proc the chain is lstat'ed and then used by path (check, then use). A link at the file's own
//   name is replaced, never written through.
// - A system root (`doctor --root R`) resolves links the way the system inside R would: an absolute
//   target starts again at R and `..` stops at it, so nothing outside R is reached.
//
// eslint (`eslint.config.mjs`) and the security scan (test/helpers/securityScan.ts) reject `node:fs`
// everywhere else in server/src and client/src, except the short list in scripts/fs-allowlist.mjs.
import {
  accessSync,
  closeSync,
  constants,
  createWriteStream,
  fstatSync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  promises as fsPromises,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Dirent,
  type Stats,
  type WriteStream,
} from 'node:fs';
// `fs.promises` is loaded on first use (a getter); `node:fs/promises` would load it, and readline with it, at every
// start of every CLI command (4–5 ms of `hailo-tools hef`'s start-up, bench/cli.bench.ts).
import type { FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { describeFileKind, FileAccessError, isInside, readHandleTextPrefix, readIntoSync, readToEndSync, streamHandleText } from './fileAccess';
import { formatBytes } from './limits';

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | NOFOLLOW;
const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NONBLOCK ?? 0) | NOFOLLOW;

/**
 * Test-only seam (test/unit/common/confine-race.test.ts): called with the checked path between the
 * check and the use (the open of a read, the first write into a checked folder), so a test can swap
 * a folder for a link exactly there. The product never sets it.
 */
export const raceSeam: { between?: (checked: string) => void; noProcFd?: boolean } = {};

let procFdWorks: boolean | undefined;
/** Whether /proc/self/fd/N names an open descriptor's object (Linux with procfs mounted). */
function procFd(): boolean {
  if (raceSeam.noProcFd) return false;
  if (procFdWorks === undefined) {
    try {
      procFdWorks = process.platform === 'linux' && statSync('/proc/self/fd').isDirectory();
    } catch {
      procFdWorks = false;
    }
  }
  return procFdWorks;
}

/** The path through which names inside an open folder descriptor are reached (an openat emulation). */
function fdPath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}
/** Links followed at most this often in a system root (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40;

export type Verb = 'read' | 'written' | 'listed' | 'mounted' | 'sent' | 'removed';

function errnoWhy(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'ENOTDIR':
      return 'a part of it is not a folder';
    default:
      return e.code ?? 'cannot be opened';
  }
}

/** A FileAccessError for an I/O failure: the path and the errno's meaning, nothing read from the file. */
function ioError(path: string, err: unknown, verb: Verb = 'read'): FileAccessError {
  if (err instanceof FileAccessError) return err;
  const e = err as NodeJS.ErrnoException;
  const what = verb === 'listed' ? 'list' : verb === 'written' ? 'write' : verb === 'removed' ? 'remove' : 'open';
  return new FileAccessError(`cannot ${what} '${path}': ${errnoWhy(e)}`, e.code ?? 'io');
}

function describeRoots(roots: readonly string[]): string {
  return roots.length === 1 ? `the folder '${roots[0]}'` : `the folders ${roots.map((r) => `'${r}'`).join(' or ')}`;
}

/** The folders the user opened (the language server's workspace folders; the CLI's current folder). */
let openedFolders: readonly string[] = [];

/** Set by the language server from its workspace folders, by the CLI to its current folder. */
export function setOpenedFolders(folders: readonly string[]): void {
  openedFolders = [...folders];
}

export function currentOpenedFolders(): readonly string[] {
  return openedFolders;
}

/** A read's check: the real path, and (without /proc) the "dev:ino" it named. */
interface Checked {
  real: string;
  id?: string;
}

function byName(a: Dirent, b: Dirent): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/** Where a path may live: one or more folders, or one system root. Immutable. */
export class FileRoots {
  /** The roots as given (resolved) and as real paths, pairwise. */
  private readonly given: readonly string[];
  private readonly real: readonly string[];

  private constructor(
    roots: readonly string[],
    /** A system root: absolute link targets start again at the root (`doctor --root`). */
    readonly system: boolean,
  ) {
    const given = [...new Set(roots.map((r) => resolve(r)))];
    this.given = given;
    this.real = given.map((r) => {
      try {
        return realPathOf(r);
      } catch {
        return r;
      }
    });
  }

  /** Paths may live in any of these folders (the opened folders, a model's folder…). */
  static of(roots: readonly string[]): FileRoots {
    if (roots.length === 0) throw new Error('FileRoots.of: at least one root');
    return new FileRoots(roots, false);
  }

  /** The folder a file the user named lives in (a path typed on the command line is trusted as written). */
  static beside(file: string): FileRoots {
    return new FileRoots([dirname(resolve(file))], false);
  }

  /** A whole system laid out under `root` (`/`, or `doctor --root R`). */
  static system(root: string): FileRoots {
    return new FileRoots([root], true);
  }

  /** A file the user named (an argument, an opened document): its folder as written and its real folder. */
  static named(file: string): FileRoots {
    const abs = resolve(file);
    let realDir = dirname(abs);
    try {
      realDir = dirname(realPathOf(abs));
    } catch {
      // missing: its folder as written
    }
    return new FileRoots([dirname(abs), realDir], false);
  }

  /** Files found beside `file` or named by it: its own folder and the folders the user opened. */
  static near(file: string): FileRoots {
    return new FileRoots([dirname(resolve(file)), ...openedFolders], false);
  }

  /** A fresh private folder (mode 0700) made by the product under `parent` (default: the OS temp folder); the only root. */
  static makeTemp(prefix: string, parent = tmpdir()): FileRoots {
    return new FileRoots([mkdtempSync(join(parent, prefix))], false);
  }

  /** Removes the (first) root folder itself with everything in it (a temp folder made by makeTemp); links inside are removed, not followed. */
  removeRoot(): void {
    rmSync(this.real[0], { recursive: true, force: true });
  }

  /** These roots and more. */
  with(...more: readonly string[]): FileRoots {
    return new FileRoots([...this.given, ...more], this.system);
  }

  get folders(): readonly string[] {
    return this.given;
  }

  /** The root a path lies in lexically (as given or as its real path), or undefined. */
  private lexicalRoot(abs: string): { root: string; rel: string } | undefined {
    for (let i = 0; i < this.given.length; i++) {
      for (const r of [this.given[i], this.real[i]]) {
        if (isInside(abs, r)) return { root: this.real[i], rel: relative(r, abs) };
      }
    }
    return undefined;
  }

  private outside(path: string, verb: Verb, resolved?: string): FileAccessError {
    const where = resolved && resolved !== resolve(path) ? ` (it resolves to '${resolved}')` : '';
    return new FileAccessError(
      `'${path}' leads outside ${describeRoots(this.given)}${where}; not ${verb}: put the file inside the folder, or give its real path yourself`,
      'outside',
    );
  }

  /**
   * The real path of `path` with every link resolved, checked to lie inside a root; a FileAccessError
   * (code `outside`) otherwise. A tail that does not exist yet resolves through its nearest ancestor.
   */
  resolve(path: string, verb: Verb = 'read'): string {
    const abs = resolve(path);
    if (this.system) {
      const at = this.lexicalRoot(abs);
      if (!at) throw this.outside(path, verb);
      const host = resolveInSystem(at.root, at.rel);
      if (host === undefined) throw new FileAccessError(`cannot open '${path}': no such file`, 'ENOENT');
      return host;
    }
    let real: string;
    try {
      real = realPathOf(abs);
    } catch (err) {
      throw ioError(path, err, verb);
    }
    if (this.real.some((r) => isInside(real, r))) return real;
    throw this.outside(path, verb, real);
  }

  /** True when `path` resolves inside a root (missing files count as inside when their folder is). */
  contains(path: string): boolean {
    try {
      this.resolve(path);
      return true;
    } catch {
      return false;
    }
  }

  // ---- reads ----------------------------------------------------------------------------------

  /** stat (links followed inside the roots); undefined when missing; throws when it leads outside. */
  stat(path: string): Stats | undefined {
    let real: string;
    try {
      real = this.resolve(path);
    } catch (err) {
      if (err instanceof FileAccessError && (err.code === 'ENOENT' || err.code === 'ENOTDIR')) return undefined;
      throw err;
    }
    try {
      return statSync(real);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw ioError(path, err);
    }
  }

  /** Something (a file, a folder, a link — even one leading outside) is at `path`; nothing is followed. */
  exists(path: string): boolean {
    try {
      if (this.system) return this.stat(path) !== undefined;
      if (!this.lexicalRoot(resolve(path)) && !this.contains(path)) return false;
      return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
    } catch {
      return false;
    }
  }

  /** A regular file inside the roots (false when missing, outside, or not a regular file). */
  isFile(path: string): boolean {
    try {
      return this.stat(path)?.isFile() === true;
    } catch {
      return false;
    }
  }

  /** A folder inside the roots (false when missing, outside, or not a folder). */
  isDirectory(path: string): boolean {
    try {
      return this.stat(path)?.isDirectory() === true;
    } catch {
      return false;
    }
  }

  /** size:mtime of a regular file inside the roots (a cache key), or undefined. */
  stamp(path: string): string | undefined {
    try {
      const s = this.stat(path);
      return s?.isFile() ? `${s.size}:${s.mtimeMs}` : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The check of a read: the real path inside a root, and — without /proc — the (device, inode) it
   * names now, for verifyOpened. Then the test seam (between the check and the open).
   */
  private checkForOpen(path: string, verb: Verb): Checked {
    const real = this.resolve(path, verb);
    let id: string | undefined;
    if (!procFd()) {
      try {
        const st = statSync(real);
        id = `${st.dev}:${st.ino}`;
      } catch {
        // the open says why
      }
    }
    raceSeam.between?.(real);
    return { real, id };
  }

  /**
   * The object behind an opened descriptor is the one the check allowed (see the header): on Linux
   * the kernel's path of the descriptor lies inside a root; elsewhere its (device, inode) is what the
   * check saw and the real path is still link-free. A FileAccessError `changed` otherwise; the
   * caller closes the descriptor and reads nothing.
   */
  private verifyOpened(fd: number, st: Stats, path: string, checked: Checked, verb: Verb): void {
    if (procFd()) {
      let where: string;
      try {
        where = readlinkSync(fdPath(fd));
      } catch (err) {
        throw ioError(path, err, verb);
      }
      if (this.real.some((r) => isInside(where, r))) return;
    } else {
      let still = false;
      try {
        still = realpathSync.native(checked.real) === checked.real;
      } catch {
        // gone: refused below
      }
      if (still && checked.id === `${st.dev}:${st.ino}`) return;
    }
    throw new FileAccessError(`'${path}' changed while it was being opened (a folder on its way was replaced by a link or moved); not ${verb}`, 'changed');
  }

  /** Opens a regular file inside the roots for reading (never a FIFO, folder or device). The caller closes `fd`. */
  openSync(path: string): { fd: number; size: number; real: string } {
    const checked = this.checkForOpen(path, 'read');
    let fd: number;
    try {
      fd = openSync(checked.real, READ_FLAGS);
    } catch (err) {
      throw ioError(path, err);
    }
    try {
      const st = fstatSync(fd);
      this.verifyOpened(fd, st, path, checked, 'read');
      if (!st.isFile()) throw new FileAccessError(`'${path}' is ${describeFileKind(st)}, not a regular file; not read`, 'not-regular');
      return { fd, size: st.size, real: checked.real };
    } catch (err) {
      closeSync(fd);
      throw ioError(path, err);
    }
  }

  /** Async twin of openSync. The caller closes the handle. */
  async open(path: string): Promise<{ handle: FileHandle; size: number; real: string }> {
    const checked = this.checkForOpen(path, 'read');
    let handle: FileHandle;
    try {
      handle = await fsPromises.open(checked.real, READ_FLAGS);
    } catch (err) {
      throw ioError(path, err);
    }
    try {
      const st = await handle.stat();
      this.verifyOpened(handle.fd, st, path, checked, 'read');
      if (!st.isFile()) throw new FileAccessError(`'${path}' is ${describeFileKind(st)}, not a regular file; not read`, 'not-regular');
      return { handle, size: st.size, real: checked.real };
    } catch (err) {
      await handle.close();
      throw ioError(path, err);
    }
  }

  /** The whole of a regular file of at most `maxBytes` (FileAccessError `too-large` past it). */
  readSync(path: string, maxBytes: number): Buffer {
    const { fd, size } = this.openSync(path);
    try {
      if (size > maxBytes) {
        throw new FileAccessError(`'${path}' is ${size.toLocaleString('en-US')} bytes, more than the ${formatBytes(maxBytes)} limit; not read`, 'too-large');
      }
      // procfs reports 0 bytes for a file it generates on read (/proc/sys/kernel/osrelease).
      if (size === 0) return readToEndSync(path, fd, maxBytes);
      const out = Buffer.allocUnsafe(size);
      const n = readIntoSync(fd, out, 0, size, 0);
      return n === size ? out : out.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }

  /** readSync as UTF-8 text. */
  readText(path: string, maxBytes: number): string {
    return this.readSync(path, maxBytes).toString('utf8');
  }

  /** readText, or undefined when the file is missing, refused or unreadable (optional files: a note is the caller's). */
  readTextOrUndefined(path: string, maxBytes: number): string | undefined {
    try {
      return this.readText(path, maxBytes);
    } catch {
      return undefined;
    }
  }

  /**
   * Streams a regular file inside the roots as UTF-8 text to `onText` in pieces of `chunkBytes` (a
   * character split between pieces is decoded whole); memory is one piece. Returns the bytes read.
   */
  async streamText(path: string, onText: (text: string) => void, chunkBytes = 1 << 20): Promise<number> {
    const { handle } = await this.open(path);
    try {
      return await streamHandleText(handle, onText, chunkBytes);
    } finally {
      await handle.close();
    }
  }

  /** The first `maxBytes` of a regular file inside the roots as UTF-8 text (a partial last character dropped). */
  async readTextPrefix(path: string, maxBytes: number): Promise<string> {
    const { handle, size } = await this.open(path);
    try {
      return await readHandleTextPrefix(handle, size, maxBytes);
    } finally {
      await handle.close();
    }
  }

  /** The names in a folder inside the roots, sorted — a link leading out of them is not listed; a FileAccessError when the folder cannot be listed. */
  list(dir: string): string[] {
    // A finder picks from these names and reads what it picked later, often through roots of its own
    // (FileRoots.named admits a file's real folder): so a link leading out of these roots — or nowhere —
    // is not listed at all, and no finder can pick it (issue 29, audit3 A3-2/3/5/6/8/9: six finders
    // had each forgotten the check). A finder that tells the user about such a link lists with
    // listEntries (links as links) and says why itself (har/modelResolver.ts); a file named by a
    // setting is refused with its sentence.
    // In a system root every link resolves inside it (see the header), so all entries are listed.
    return this.listEntries(dir)
      .filter((e) => this.system || !e.isSymbolicLink() || this.contains(join(dir, e.name)))
      .map((e) => e.name);
  }

  /** list, or [] when the folder is missing, refused or unreadable. */
  listOrEmpty(dir: string): string[] {
    try {
      return this.list(dir);
    } catch {
      return [];
    }
  }

  /** The entries of a folder inside the roots (types as on disk: a link is a link), sorted by name. */
  listEntries(dir: string): Dirent[] {
    const checked = this.checkForOpen(dir, 'listed');
    let fd: number;
    try {
      fd = openSync(checked.real, DIR_FLAGS);
    } catch (err) {
      throw ioError(dir, err, 'listed');
    }
    try {
      this.verifyOpened(fd, fstatSync(fd), dir, checked, 'listed');
      return readdirSync(procFd() ? fdPath(fd) : checked.real, { withFileTypes: true }).sort(byName);
    } catch (err) {
      throw ioError(dir, err, 'listed');
    } finally {
      closeSync(fd);
    }
  }

  /** Async twin of listEntries (a workspace walk must not block the server). */
  async listEntriesAsync(dir: string): Promise<Dirent[]> {
    const checked = this.checkForOpen(dir, 'listed');
    let handle: FileHandle;
    try {
      handle = await fsPromises.open(checked.real, DIR_FLAGS);
    } catch (err) {
      throw ioError(dir, err, 'listed');
    }
    try {
      this.verifyOpened(handle.fd, await handle.stat(), dir, checked, 'listed');
      return (await fsPromises.readdir(procFd() ? fdPath(handle.fd) : checked.real, { withFileTypes: true })).sort(byName);
    } catch (err) {
      throw ioError(dir, err, 'listed');
    } finally {
      await handle.close();
    }
  }

  /** lstat of a path lying (as written) inside a root: the entry itself, a link not followed; undefined when missing or not inside. */
  lstat(path: string): Stats | undefined {
    const abs = resolve(path);
    if (!this.lexicalRoot(abs)) return undefined;
    try {
      return lstatSync(join(this.resolve(dirname(abs)), basename(abs)), { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
  }

  /** Where a link inside the roots points (the target as written: a name for a caller to show, not a path to open). */
  readlink(path: string): string | undefined {
    const at = this.lexicalRoot(resolve(path));
    if (!at) return undefined;
    try {
      // The link itself must sit in a real folder inside the root.
      const parent = this.resolve(dirname(path));
      return readlinkSync(join(parent, basename(path)));
    } catch {
      return undefined;
    }
  }

  /** The link-free entries of a folder tree inside a root (walkFilesSync's rules, within these roots). */
  walk(dir: string, options: WalkOptions): WalkResult {
    try {
      this.resolve(dir, 'listed');
    } catch (err) {
      return { files: [], skipped: [(err as Error).message], truncated: false };
    }
    return walkFilesSync(dir, options);
  }

  // ---- writes ---------------------------------------------------------------------------------

  /**
   * The folder `path` goes in, every component from its root down checked without following a link
   * (missing folders made one at a time when `make`), as a prefix to join the leaf to: on Linux
   * `/proc/self/fd/N` of the last folder's open descriptor — each folder opened through its parent's
   * descriptor with O_DIRECTORY|O_NOFOLLOW, so what is written later lands in the folder checked
   * even if a folder on the way is swapped meanwhile; elsewhere the checked real folder's path. The
   * caller closes it.
   */
  private openParent(path: string, make: boolean): WriteFolder {
    const abs = resolve(path);
    const at = this.lexicalRoot(abs);
    if (!at || at.rel === '' || at.rel.startsWith('..') || isAbsolute(at.rel)) throw this.outside(path, 'written');
    const parts = at.rel.split(sep).filter(Boolean).slice(0, -1);
    let cur = at.root;
    if (!procFd()) {
      for (const part of parts) {
        cur = join(cur, part);
        this.checkFolder(cur, path, make);
      }
      raceSeam.between?.(cur);
      return { dir: cur, close: () => undefined };
    }
    let fd: number;
    try {
      fd = openSync(at.root, DIR_FLAGS);
    } catch (err) {
      throw ioError(path, err, 'written');
    }
    try {
      for (const part of parts) {
        cur = join(cur, part);
        const next = openFolderAt(fd, part, cur, path, make);
        closeSync(fd);
        fd = next;
      }
      raceSeam.between?.(cur);
    } catch (err) {
      closeSync(fd);
      throw err;
    }
    const dirFd = fd;
    return { dir: fdPath(dirFd), close: () => closeSync(dirFd) };
  }

  /** Without /proc: one folder of a write's chain, lstat'ed (and made when `make`); a link or a non-folder refused. */
  private checkFolder(folder: string, path: string, make: boolean): void {
    let st = lstatSync(folder, { throwIfNoEntry: false });
    if (!st && make) {
      try {
        mkdirSync(folder, { mode: 0o755 }); // one component; mkdir never follows a link at its own name
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(folder, err, 'written');
      }
      st = lstatSync(folder, { throwIfNoEntry: false });
    }
    if (!st) throw missingFolder(folder, path);
    if (st.isSymbolicLink()) throw linkFolder(folder, path);
    if (!st.isDirectory()) throw notFolder(folder, path, st);
  }

  /** Checks, without making anything, that every existing folder from the root down to `dir` is a real folder (no link, no file). */
  checkWritableFolder(dir: string): void {
    const abs = resolve(dir);
    const at = this.lexicalRoot(abs);
    if (!at || at.rel.startsWith('..') || isAbsolute(at.rel)) throw this.outside(dir, 'written');
    let cur = at.root;
    for (const part of at.rel.split(sep).filter(Boolean)) {
      cur = join(cur, part);
      if (!lstatSync(cur, { throwIfNoEntry: false })) return; // made later, one component at a time
      this.checkFolder(cur, dir, false);
    }
  }

  /** True when `dir` is a real folder inside a root (no link on the way) that this process may write into. */
  canWrite(dir: string): boolean {
    try {
      this.checkWritableFolder(dir);
      accessSync(this.resolve(dir, 'written'), constants.W_OK);
      return this.isDirectory(dir);
    } catch {
      return false;
    }
  }

  /** Makes the folder `dir` (and its missing parents) inside a root, one component at a time, refusing links. */
  mkdir(dir: string): void {
    const abs = resolve(dir);
    const i = Math.max(this.given.indexOf(abs), this.real.indexOf(abs));
    if (i >= 0) {
      // A root itself is trusted as given (the user named it, or a caller confined it): made as a whole.
      try {
        mkdirSync(this.real[i], { recursive: true });
      } catch (err) {
        throw ioError(dir, err, 'written');
      }
      return;
    }
    this.openParent(join(dir, '.leaf'), true).close(); // makes and checks every folder down to `dir` itself
  }

  /**
   * Writes a whole file: the folders checked (and made when `makeFolders`), the bytes written to a
   * fresh O_EXCL|O_NOFOLLOW temporary name beside it, then renamed over `path` — a link at `path`
   * is replaced, never written through, and a reader never sees half a file. `exclusive`: nothing
   * at `path` (a file, a link, anything) is ever replaced — the temporary file is hard-linked to
   * the name, which fails with EEXIST when it is taken, so no other writer can slip in between.
   */
  writeSync(path: string, data: string | Uint8Array, options: { makeFolders?: boolean; exclusive?: boolean } = {}): void {
    const folder = this.openParent(path, options.makeFolders ?? false);
    try {
      writeInFolder(folder.dir, path, data, options.exclusive ?? false);
    } finally {
      folder.close();
    }
  }

  /**
   * Opens `path` for writing (created or truncated) in a checked folder, without following a link
   * at its name (O_NOFOLLOW) and refusing a FIFO, a device or a file with other hard links.
   * The caller closes the descriptor.
   */
  openForWriteSync(path: string, options: { makeFolders?: boolean } = {}): number {
    const folder = this.openParent(path, options.makeFolders ?? false);
    const target = join(folder.dir, basename(resolve(path)));
    let fd: number;
    try {
      fd = openSync(target, constants.O_WRONLY | constants.O_CREAT | NOFOLLOW | (constants.O_NONBLOCK ?? 0), 0o644);
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ELOOP')
        throw new FileAccessError(`'${path}' is a symbolic link; not written through it: remove the link (or choose another output folder)`, 'link');
      if (e.code === 'ENXIO') throw new FileAccessError(`'${path}' is a FIFO (named pipe), not a regular file; not written`, 'not-regular');
      throw ioError(path, err, 'written');
    } finally {
      folder.close();
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) throw new FileAccessError(`'${path}' is ${describeFileKind(st)}, not a regular file; not written`, 'not-regular');
      if (st.nlink > 1) throw new FileAccessError(`'${path}' has ${st.nlink} hard links; not written through them: remove it first`, 'link');
      return fd;
    } catch (err) {
      closeSync(fd);
      throw ioError(path, err, 'written');
    }
  }

  /** A write stream (a log that grows while a compile runs) on openForWriteSync, truncated. */
  createWriteStream(path: string, options: { makeFolders?: boolean; append?: boolean } = {}): WriteStream {
    const fd = this.openForWriteSync(path, options);
    if (!options.append) {
      try {
        ftruncateSync(fd, 0);
      } catch (err) {
        closeSync(fd);
        throw ioError(path, err, 'written');
      }
    }
    return createWriteStream(path, { fd, flags: options.append ? 'a' : 'w', start: options.append ? fstatSync(fd).size : 0 });
  }

  /** Renames `from` to `to`, both in checked folders inside the roots (a link at `to` is replaced, not followed). */
  rename(from: string, to: string, options: { makeFolders?: boolean } = {}): void {
    const a = this.openParent(from, false);
    try {
      const b = this.openParent(to, options.makeFolders ?? false);
      try {
        renameSync(join(a.dir, basename(resolve(from))), join(b.dir, basename(resolve(to))));
      } catch (err) {
        throw ioError(to, err, 'written');
      } finally {
        b.close();
      }
    } finally {
      a.close();
    }
  }

  /** Removes a file or (with `recursive`) a tree inside a root; a link is removed itself, never followed. */
  remove(path: string, options: { recursive?: boolean } = {}): void {
    const folder = this.openParent(path, false);
    try {
      rmSync(join(folder.dir, basename(resolve(path))), { force: true, recursive: options.recursive ?? false });
    } catch (err) {
      throw ioError(path, err, 'removed');
    } finally {
      folder.close();
    }
  }
}

/** A checked folder a write goes into: `dir` is what a leaf name is joined to (see openParent). */
interface WriteFolder {
  dir: string;
  close(): void;
}

function missingFolder(folder: string, path: string): FileAccessError {
  return new FileAccessError(`cannot write '${path}': the folder '${folder}' does not exist`, 'ENOENT');
}

function linkFolder(folder: string, path: string): FileAccessError {
  return new FileAccessError(`'${folder}' is a symbolic link; '${path}' is not written through it: remove the link (or choose another output folder)`, 'link');
}

function notFolder(folder: string, path: string, st: Stats): FileAccessError {
  return new FileAccessError(`'${folder}' is ${describeFileKind(st)}, not a folder; '${path}' is not written`, 'not-regular');
}

/**
 * Opens the folder `part` inside the open folder `parentFd` (through /proc/self/fd: an openat)
 * without following a link at it; made first when missing and `make` (mkdir never follows a link at
 * its own name). `shown` names it in sentences.
 */
function openFolderAt(parentFd: number, part: string, shown: string, path: string, make: boolean): number {
  const at = join(fdPath(parentFd), part);
  for (let made = false; ; made = true) {
    try {
      return openSync(at, DIR_FLAGS);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' && make && !made) {
        try {
          mkdirSync(at, { mode: 0o755 });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw ioError(shown, e, 'written');
        }
        continue;
      }
      if (code === 'ENOENT') throw missingFolder(shown, path);
      if (code === 'ENOTDIR' || code === 'ELOOP') {
        const st = lstatSync(at, { throwIfNoEntry: false });
        if (!st) throw missingFolder(shown, path);
        if (st.isSymbolicLink()) throw linkFolder(shown, path);
        if (!st.isDirectory()) throw notFolder(shown, path, st);
      }
      throw ioError(shown, err, 'written');
    }
  }
}

/**
 * writeSync's body in a checked folder `dir`: the bytes go to a fresh O_EXCL|O_NOFOLLOW temporary
 * name, then are renamed over the leaf (or, `exclusive`, hard-linked to it, which fails when taken).
 */
function writeInFolder(dir: string, path: string, data: string | Uint8Array, exclusive: boolean): void {
  const leaf = basename(resolve(path));
  const target = join(dir, leaf);
  const tmp = join(dir, `.${leaf}.${process.pid}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}.partial`);
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  } catch (err) {
    throw ioError(path, err, 'written');
  }
  try {
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw ioError(path, err, 'written');
  }
  closeSync(fd);
  try {
    const st = lstatSync(target, { throwIfNoEntry: false });
    if (st?.isDirectory()) throw new FileAccessError(`'${path}' is a folder; not written`, 'not-regular');
    if (exclusive) {
      if (st) throw new FileAccessError(`'${path}' already exists; not overwritten`, 'EEXIST');
      linkSync(tmp, target);
      rmSync(tmp, { force: true });
    } else renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    if (err instanceof FileAccessError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new FileAccessError(`'${path}' already exists; not overwritten`, 'EEXIST');
    throw ioError(path, err, 'written');
  }
}

/**
 * The host path of `rel` (a path inside the system) with every link followed inside `root`: an
 * absolute target starts again at the root, `..` stops at it. Undefined when a part is missing or
 * the links loop. A missing last component resolves to where it would be (an output's name).
 */
export function resolveInSystem(root: string, rel: string): string | undefined {
  const todo = rel.split(/[\\/]/).filter(Boolean);
  const done: string[] = [];
  let links = 0;
  while (todo.length > 0) {
    const part = todo.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done.pop();
      continue;
    }
    const host = join(root, ...done, part);
    const st = lstatSync(host, { throwIfNoEntry: false });
    if (!st) return todo.length === 0 ? host : undefined;
    if (!st.isSymbolicLink()) {
      done.push(part);
      continue;
    }
    if (++links > MAX_LINKS) return undefined;
    let target: string;
    try {
      target = readlinkSync(host);
    } catch {
      return undefined;
    }
    if (target.startsWith('/')) done.length = 0;
    todo.unshift(...target.split('/').filter(Boolean));
  }
  return join(root, ...done);
}

// ---- path resolution and walks (private to the layer) -------------------------------------------

/**
 * The real path of `path`: every link resolved; a tail that does not exist yet (an output file, a
 * folder to be created) is resolved through its nearest existing ancestor.
 */
function realPathOf(path: string): string {
  const abs = resolve(path);
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = realpathSync.native(cur);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = dirname(cur);
      // A dangling link is not "missing": resolving it through its parent would hide where it points.
      if (code !== 'ENOENT' || parent === cur || isDanglingLink(cur)) throw ioError(path, err);
      missing.push(basename(cur));
      cur = parent;
    }
  }
}

function isDanglingLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

export interface WalkOptions {
  /** Folders (by name) not entered; default: none. */
  skipDir?: (name: string) => boolean;
  /** Which file names are wanted. */
  wantFile: (name: string) => boolean;
  /** Stop after this many files (default: no bound). */
  maxFiles?: number;
  /** Do not go deeper than this many folders below the root (default 64). */
  maxDepth?: number;
}

export interface WalkResult {
  /** Wanted files, each real file once: regular files, and links to regular files inside the root (as the link's path). */
  files: string[];
  /** One sentence per entry left out for the folder rule or unreadable (a link outside the root, a folder we may not read). */
  skipped: string[];
  /** True when maxFiles stopped the walk. */
  truncated: boolean;
}

/**
 * Walks `root` without following links to folders and without leaving it: a directory link is
 * never entered (`root -> /` walks nothing), a file link counts only when its target is a regular
 * file inside the root, and each real file (device + inode) is listed once however many names it has.
 * Entries are visited in name order.
 */
function walkFilesSync(root: string, options: WalkOptions): WalkResult {
  const out: WalkResult = { files: [], skipped: [], truncated: false };
  const maxDepth = options.maxDepth ?? 64;
  const max = options.maxFiles ?? Infinity;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch (err) {
    out.skipped.push(ioError(root, err).message);
    return out;
  }
  // On Linux each folder is opened from its parent's descriptor without following a link
  // (O_DIRECTORY|O_NOFOLLOW through /proc/self/fd) and listed through its own: a folder swapped for
  // a link while the walk runs is not entered, so no name outside the root is listed.
  const anchored = procFd();
  const seen = new Set<string>();
  /** `dir` names the folder in the answer; `at` is where it is reached (its descriptor's path on Linux). */
  const visit = (dir: string, at: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(at, { withFileTypes: true }).sort(byName);
    } catch (err) {
      out.skipped.push(`${dir}: cannot read folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      return;
    }
    for (const e of entries) {
      if (out.files.length >= max) {
        out.truncated = true;
        return;
      }
      const p = join(dir, e.name);
      const pAt = join(at, e.name);
      if (e.isDirectory()) {
        if (options.skipDir?.(e.name)) continue;
        if (depth + 1 > maxDepth) {
          out.skipped.push(`${p}: more than ${maxDepth} folders deep; not walked`);
          continue;
        }
        raceSeam.between?.(p);
        if (!anchored) {
          visit(p, p, depth + 1);
          continue;
        }
        let fd: number;
        try {
          fd = openSync(pAt, DIR_FLAGS);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          out.skipped.push(
            code === 'ENOTDIR' || code === 'ELOOP'
              ? `${p}: no longer a folder (replaced while it was walked); not walked`
              : `${p}: cannot read folder (${code})`,
          );
          continue;
        }
        try {
          visit(p, fdPath(fd), depth + 1);
        } finally {
          closeSync(fd);
        }
        continue;
      }
      if (!options.wantFile(e.name)) continue;
      let st: Stats;
      if (e.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync.native(pAt);
          st = statSync(real);
        } catch {
          continue; // a dangling link: nothing to read
        }
        if (st.isDirectory()) continue; // never entered
        if (!isInside(real, realRoot)) {
          out.skipped.push(`${p}: a link to '${real}', outside '${root}'; not read`);
          continue;
        }
      } else {
        try {
          // by its path, not through /proc (a lookup there costs several times more): only the
          // (device, inode) that lists each file once; the name came from the anchored listing
          st = lstatSync(p);
        } catch {
          continue;
        }
      }
      const key = `${st.dev}:${st.ino}`;
      if (st.isFile() && seen.has(key)) continue;
      seen.add(key);
      out.files.push(p); // FIFOs and devices too: their reader refuses them in one sentence
    }
  };
  if (!anchored) {
    visit(root, root, 0);
    return out;
  }
  let fd: number;
  try {
    fd = openSync(realRoot, DIR_FLAGS);
  } catch (err) {
    out.skipped.push(ioError(root, err, 'listed').message);
    return out;
  }
  try {
    if (readlinkSync(fdPath(fd)) !== realRoot) out.skipped.push(`'${root}' changed while it was being opened; not walked`);
    else visit(root, fdPath(fd), 0);
  } finally {
    closeSync(fd);
  }
  return out;
}
