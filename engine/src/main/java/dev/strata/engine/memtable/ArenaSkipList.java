package dev.strata.engine.memtable;

import dev.strata.sstable.key.ValueKind;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The memtable's sorted index: a skip list (Pugh) of {@link ArenaEntries} entries, its nodes in one
 * arena of direct memory and the entries in another, so an entry costs no object (LevelDB's and
 * RocksDB's memtable, in Java).
 *
 * <p>Node layout, 8-byte words in the node arena: {@code [prefix high, prefix low | h, entry,
 * next_0, ..., next_{h-1}]}; h is the node's random height (a quarter of the nodes reach each next
 * level), kept in the lowest byte of the second word; entry is the entry's address in the entry
 * arena; next pointers are node addresses (chunk index in the high 32 bits, byte offset in the
 * low). The head node sits at address 0 with every level and no entry, so 0 also means "no node":
 * the head is nobody's successor.
 *
 * <p>Why two arenas: a search reads the nodes it passes and, thanks to the prefix, almost never
 * their entries; nodes packed together (about 35 bytes each) keep the nodes a search passes in the
 * processor's caches, where nodes interleaved with their entries (a value of 100 bytes to a few KiB
 * each) spread them over the whole memtable, so that each step of a search in a large memtable was
 * a miss to memory. The price is the entry's address in each node (8 bytes), and a second miss when
 * a search must read an entry.
 *
 * <p>The two prefix words are the row's first fifteen bytes ({@link RowPrefix}): rows whose
 * prefixes differ are ordered as their prefixes are. A search compares the prefix in the node it
 * already loaded and reads the entry only when the prefixes are equal.
 *
 * <p>Concurrency (LevelDB's skip list): one writer at a time, any number of readers, no lock for
 * readers. The writer fills a node (its entry, then its next pointers) and only then links it in,
 * level 0 first, with a release store into the predecessor; readers load next pointers with
 * acquire, so a reader that reaches a node sees it and its entry whole. A reader may see a node at
 * level 0 before the upper levels link it, which only makes its search a little longer.
 * Nodes are never removed or changed after they are linked.
 *
 * <p>Thread-safety: as above; the caller serializes writers. {@link #release} only once no
 * reader is left.
 */
final class ArenaSkipList {
  /** Highest node: 4^12 = 16 M entries per top-level step, beyond any memtable; fits a byte. */
  static final int MAX_HEIGHT = 12;

  /** Node words (row prefix, height, entry, next pointers): aligned, in the platform's order. */
  private static final VarHandle WORDS =
      MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

  /**
   * Node words before the next pointers: the row prefix (the height in the second's low byte), the
   * entry's address.
   */
  private static final int NODE_HEADER_WORDS = 3;

  /** The node word holding the entry's address. */
  private static final int ENTRY_WORD = 2;

  /** What the nodes index. */
  private final ArenaEntries entries;

  /** The nodes: every allocation a multiple of 8 bytes, so node words align. */
  private final Arena nodes;

  /** The entries, back to back: read by plain loads, which need no alignment. */
  private final Arena entryArena;

  /** Levels in use; read without ordering (a stale value only shortens a search's first step). */
  private volatile int height = 1;

  /** Node heights; the seed is fixed, so a run's shape is reproducible. */
  private final SplittableRandom random = new SplittableRandom(0x5EED);

  /**
   * The writer's splice (RocksDB's): for every level, a node before the key of the writer's last
   * insert or that node itself, no later on a level than on the level below. Writer only.
   */
  private final long[] preds = new long[MAX_HEIGHT];

  /** The node the writer inserted last, 0 before the first insert. */
  private long lastInserted;

  /** The head's bytes: the list's fixed cost, which an empty memtable does not charge. */
  private final long headBytes;

  ArenaSkipList(MemTableMemory memory) {
    nodes = new Arena(memory);
    entryArena = new Arena(memory);
    entries = new ArenaEntries(entryArena);
    long head = allocateNode(MAX_HEIGHT);
    assert head == 0 : "the head must be node 0";
    ByteBuffer n = nodes.chunk(head);
    // No row: never compared, being nobody's successor. Chunks come unzeroed from the pool.
    WORDS.set(n, word(head, 0), 0L);
    WORDS.set(n, word(head, 1), (long) MAX_HEIGHT);
    WORDS.set(n, word(head, ENTRY_WORD), 0L);
    for (int level = 0; level < MAX_HEIGHT; level++) {
      WORDS.set(n, word(head, NODE_HEADER_WORDS + level), 0L);
    }
    headBytes = nodes.bytesUsed();
  }

  // ---------------------------------------------------------------- writing (one writer)

  /** Inserts an entry; its key must not be in the list yet. Returns the entry's arena address. */
  long insert(byte[] row, byte[] column, long sequence, ValueKind kind, byte[] value) {
    long ktag = ArenaEntries.tag(sequence, kind);
    long high = RowPrefix.high(row, 0, row.length);
    long low = RowPrefix.low(row, 0, row.length);
    long found = findInsertPoint(row, column, ktag, high, low);
    int h = randomHeight();
    int levels = height;
    if (h > levels) {
      for (int level = levels; level < h; level++) {
        preds[level] = 0;
      }
      height = h;
    }
    long entry = entryArena.allocate(ArenaEntries.size(row, column, value));
    entries.write(entry, row, column, ktag, value);
    long node = allocateNode(h);
    assert found == 0 || entries.compareCell(entryOf(found), row, column, ktag) != 0
        : "duplicate internal key";
    ByteBuffer n = nodes.chunk(node);
    // Plain stores: the node is not reachable until the release stores below link it.
    WORDS.set(n, Arena.offset(node), high);
    WORDS.set(n, word(node, 1), low | h);
    WORDS.set(n, word(node, ENTRY_WORD), entry);
    for (int level = 0; level < h; level++) {
      WORDS.set(n, word(node, NODE_HEADER_WORDS + level), next(preds[level], level));
    }
    for (int level = 0; level < h; level++) {
      long pred = preds[level];
      WORDS.setRelease(nodes.chunk(pred), word(pred, NODE_HEADER_WORDS + level), node);
      preds[level] = node; // precedes every later key: the splice of the next insert
    }
    lastInserted = node;
    return entry;
  }

  /**
   * Searches the insert point of (row, column, ktag), leaving in {@link #preds} the last node
   * before it on every level; returns the first node at or after it, or 0. A key after the last
   * insert's starts from the splice the last insert left ({@link #seekCellFrom}'s climb and
   * descent), so keys inserted in ascending order (a batch sorted by key, a restore of a
   * key-ordered changelog, sequential ids) cost a few comparisons each instead of a search from
   * the head; any other key is searched from the head.
   */
  private long findInsertPoint(byte[] row, byte[] column, long ktag, long high, long low) {
    if (lastInserted != 0 && isBefore(lastInserted, row, column, ktag, high, low)) {
      int top = height - 1;
      int level = 0;
      while (level < top && isBefore(next(preds[level], level), row, column, ktag, high, low)) {
        level++;
      }
      return descend(preds, level, row, column, ktag, high, low);
    }
    Arrays.fill(preds, 0); // the head: a search from the top
    return descend(preds, height - 1, row, column, ktag, high, low);
  }

  private int randomHeight() {
    int h = 1;
    while (h < MAX_HEIGHT && (random.nextInt() & 3) == 0) {
      h++;
    }
    return h;
  }

  private long allocateNode(int levels) {
    return nodes.allocate(Long.BYTES * (NODE_HEADER_WORDS + levels));
  }

  // ---------------------------------------------------------------- searching (any thread)

  /**
   * The first node at or after the encoded key at ({@code k}, {@code ko}), or 0; records the last
   * node before it on every level in {@code predecessors} when not null.
   */
  long seek(byte[] k, int ko, long[] predecessors) {
    int ro = ko + ArenaEntries.HEADER_BYTES;
    int rl = ArenaEntries.searchKeyRowLength(k, ko);
    long high = RowPrefix.high(k, ro, rl);
    long low = RowPrefix.low(k, ro, rl);
    long x = 0;
    int level = height - 1;
    while (true) {
      long next = next(x, level);
      if (next != 0 && compareNode(next, k, ko, high, low) < 0) {
        x = next;
      } else {
        if (predecessors != null) {
          predecessors[level] = x;
        }
        if (level == 0) {
          return next;
        }
        level--;
      }
    }
  }

  /**
   * The first node at or after key (row, column, sequence, kind), or 0: {@link #seek} for a key
   * given by its parts, so a point lookup encodes no search key.
   */
  long seekCell(byte[] row, byte[] column, long sequence, ValueKind kind) {
    long ktag = ArenaEntries.tag(sequence, kind);
    long high = RowPrefix.high(row, 0, row.length);
    long low = RowPrefix.low(row, 0, row.length);
    long x = 0;
    int level = height - 1;
    while (true) {
      long next = next(x, level);
      if (isBefore(next, row, column, ktag, high, low)) {
        x = next;
      } else if (level == 0) {
        return next;
      } else {
        level--;
      }
    }
  }

  /**
   * {@link #seekCell} for a key at or after the last one sought with {@code finger} (a finger
   * search, as RocksDB's memtable MultiGet does): {@code finger[level]} holds, for every level, the
   * last node before that previous key (the head, 0, before the first search), and is moved to the
   * last node before this one. A search from the head compares at every level; this one climbs
   * from the bottom only while the finger's successor is still before the key, then descends from
   * there, so keys d entries apart cost O(log d) comparisons, not O(log entries).
   *
   * <p>Correct for any finger of nodes before the key, hence under concurrent inserts: every finger
   * node precedes the previous key, so precedes this one, and a search at a level may start from
   * any node of the level before its key. A level added since the last search has the head as
   * its finger.
   */
  long seekCellFrom(long[] finger, byte[] row, byte[] column, long sequence, ValueKind kind) {
    long ktag = ArenaEntries.tag(sequence, kind);
    long high = RowPrefix.high(row, 0, row.length);
    long low = RowPrefix.low(row, 0, row.length);
    int top = height - 1;
    int level = 0;
    // Where the finger's successor is at or after the key, the finger is this level's last node
    // before the key, and so are the fingers of the levels above (no node lies between).
    while (level < top && isBefore(next(finger[level], level), row, column, ktag, high, low)) {
      level++;
    }
    return descend(finger, level, row, column, ktag, high, low);
  }

  /**
   * The first node at or after (row, column, ktag), searched down from {@code top}, moving {@code
   * finger[level]} to the last node before the key on each level from {@code top} down; every
   * finger node must precede the key, the head (0) on every level for a search from the head (an
   * insert's, which links its node after them). The row's prefix is ({@code high}, {@code low}).
   */
  private long descend(
      long[] finger, int top, byte[] row, byte[] column, long ktag, long high, long low) {
    // Until the search moves, each level's finger is at or after the node the search stands on;
    // once it moved past a finger, it stands beyond every lower level's finger.
    int level = top;
    long x = finger[level];
    boolean moved = false;
    while (true) {
      if (!moved) {
        x = finger[level];
      }
      long next = next(x, level);
      if (isBefore(next, row, column, ktag, high, low)) {
        x = next;
        moved = true;
      } else {
        finger[level] = x;
        if (level == 0) {
          return next;
        }
        level--;
      }
    }
  }

  /**
   * Whether {@code node} is a node (not 0) whose entry sorts before (row, column, ktag), the row's
   * prefix being ({@code high}, {@code low}): decided by the node's prefix unless the two are
   * equal.
   */
  private boolean isBefore(long node, byte[] row, byte[] column, long ktag, long high, long low) {
    if (node == 0) {
      return false;
    }
    int cmp = comparePrefix(node, high, low);
    if (cmp != 0) {
      return cmp < 0;
    }
    return entries.compareCell(entryOf(node), row, column, ktag) < 0;
  }

  /**
   * Compares {@code node}'s entry with the encoded key at ({@code k}, {@code ko}), whose row
   * prefix is ({@code high}, {@code low}): by the prefixes when they differ.
   */
  private int compareNode(long node, byte[] k, int ko, long high, long low) {
    int cmp = comparePrefix(node, high, low);
    return cmp != 0 ? cmp : entries.compare(entryOf(node), k, ko);
  }

  /** Compares {@code node}'s row prefix with ({@code high}, {@code low}). */
  private int comparePrefix(long node, long high, long low) {
    ByteBuffer n = nodes.chunk(node);
    // Plain loads: written before the node was published, and reached through an acquire.
    return RowPrefix.compare(
        (long) WORDS.get(n, Arena.offset(node)), (long) WORDS.get(n, word(node, 1)), high, low);
  }

  /** The last node before the encoded key at ({@code k}, {@code ko}), or 0. */
  long seekBefore(byte[] k, int ko) {
    return lastBefore(k, ko);
  }

  /** The last node, or 0 when the list is empty. */
  long last() {
    return lastBefore(null, 0);
  }

  /** The last node before the encoded key at ({@code k}, {@code ko}) (null: after every key). */
  private long lastBefore(byte[] k, int ko) {
    int ro = ko + ArenaEntries.HEADER_BYTES;
    int rl = k == null ? 0 : ArenaEntries.searchKeyRowLength(k, ko);
    long high = k == null ? 0 : RowPrefix.high(k, ro, rl);
    long low = k == null ? 0 : RowPrefix.low(k, ro, rl);
    long x = 0;
    int level = height - 1;
    while (true) {
      long next = next(x, level);
      if (next != 0 && (k == null || compareNode(next, k, ko, high, low) < 0)) {
        x = next;
      } else if (level == 0) {
        return x;
      } else {
        level--;
      }
    }
  }

  /** The node after {@code node} at level 0, or 0. */
  long next(long node) {
    return next(node, 0);
  }

  private long next(long node, int level) {
    return (long) WORDS.getAcquire(nodes.chunk(node), word(node, NODE_HEADER_WORDS + level));
  }

  /** The entry arena address of {@code node}'s entry. */
  long entryOf(long node) {
    // Plain: written before the node was published, and a reader reached it through an acquire.
    return (long) WORDS.get(nodes.chunk(node), word(node, ENTRY_WORD));
  }

  /** The byte offset of word {@code i} of {@code node} in its chunk. */
  private static int word(long node, int i) {
    return Arena.offset(node) + Long.BYTES * i;
  }

  /** Bytes of entries and nodes, with the chunk tails no allocation can use any more. */
  long bytesUsed() {
    return nodes.bytesUsed() + entryArena.bytesUsed() - headBytes;
  }

  /** Bytes of the nodes alone (the head's included): what a search walks through. */
  long nodeBytesUsed() {
    return nodes.bytesUsed();
  }

  /** Bytes of every chunk of entries and nodes, used or not. */
  long bytesHeld() {
    return nodes.bytesHeld() + entryArena.bytesHeld();
  }

  /** The entries the nodes index. */
  ArenaEntries entries() {
    return entries;
  }

  /** Gives the entries' and nodes' memory back; only once no reader is left. */
  void release() {
    nodes.release();
    entryArena.release();
  }
}
