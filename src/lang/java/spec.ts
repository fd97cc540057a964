import { elementTable, type LanguageSpec } from "../spec.ts";
import { declaredPackages } from "../packages.ts";
import { JVM_BUILD_FILES, moduleSees, resolveJvmImport, splitImport } from "./jvm.ts";
import query from "./tags.scm" with { type: "text" };

export const java: LanguageSpec = {
  name: "java",
  grammar: "java",
  extensions: [".java"],
  query,
  selfNames: ["this", "super"],
  implicitThis: true,
  importsReexported: false,
  packageScope: "declared",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)src\/(test|it)\/|Tests?\.java$/,
  provides: (_repo, files) => declaredPackages(files, java.testFiles, ["java", "kotlin"]),
  docStyle: "comments",
  overloads: true,
  bareFunctionValues: false,
  constructorNames: ["<type>"],
  superNames: ["super"],
  returnFields: ["type"],
  typeWrappers: ["Optional"],
  librarySupertypes: [
    [/Exception$/, ["Exception", "Throwable"]],
    [/Error$/, ["Error", "Throwable"]],
    [/^(String|StringBuilder|StringBuffer|CharBuffer)$/, ["CharSequence"]],
    [/^(Integer|Long|Double|Float|Short|Byte|BigInteger|BigDecimal)$/, ["Number"]],
    [/^(ArrayList|LinkedList|List)$/, ["List", "Collection", "Iterable"]],
    [/^(HashSet|TreeSet|LinkedHashSet|Set)$/, ["Set", "Collection", "Iterable"]],
    [/^(HashMap|TreeMap|LinkedHashMap|ConcurrentHashMap)$/, ["Map"]],
    [/^(ByteArrayInputStream|FileInputStream|BufferedInputStream)$/, ["InputStream"]],
    [/^(ByteArrayOutputStream|FileOutputStream|BufferedOutputStream|PrintStream)$/, [
      "OutputStream",
    ]],
  ],
  elementReturns: elementTable({
    0: `[].[] List.get List.getFirst List.getLast List.remove ArrayList.get ArrayList.getFirst
      ArrayList.getLast ArrayList.remove LinkedList.get LinkedList.getFirst LinkedList.getLast
      LinkedList.peek LinkedList.poll LinkedList.pop LinkedList.removeFirst LinkedList.removeLast
      Deque.peek Deque.poll Deque.pop Deque.peekFirst Deque.peekLast Deque.pollFirst Deque.pollLast
      Deque.getFirst Deque.getLast Deque.removeFirst Deque.removeLast ArrayDeque.peek ArrayDeque.poll
      ArrayDeque.pop ArrayDeque.peekFirst ArrayDeque.peekLast ArrayDeque.pollFirst
      ArrayDeque.pollLast ArrayDeque.getFirst ArrayDeque.getLast Queue.peek Queue.poll Queue.element
      Queue.remove Stack.peek Stack.pop Stack.push Vector.get Vector.firstElement
      Vector.lastElement Iterator.next ListIterator.next ListIterator.previous SortedSet.first
      SortedSet.last TreeSet.first TreeSet.last NavigableSet.first NavigableSet.last
      Supplier.get Callable.call Future.get CompletableFuture.get CompletableFuture.join
      ThreadLocal.get AtomicReference.get WeakReference.get SoftReference.get Reference.get
      Entry.getKey Class.cast`,
    1: `Map.get Map.getOrDefault Map.put Map.remove HashMap.get HashMap.getOrDefault HashMap.put
      HashMap.remove LinkedHashMap.get LinkedHashMap.getOrDefault TreeMap.get TreeMap.getOrDefault
      SortedMap.get NavigableMap.get ConcurrentHashMap.get ConcurrentMap.get Entry.getValue
      Function.apply`,
  }),
  moduleName: (_path, pkg) => pkg ?? "",
  normalizeImport: splitImport,
  resolveImport: (imp, fromPath, repo) => resolveJvmImport("java", [".java"], imp, repo, fromPath),
  guessReaches: moduleSees,
  manifests: JVM_BUILD_FILES,
  // Object, collections, streams, Optional, functional interfaces, builders, printing.
  commonMethods:
    `equals hashCode toString compareTo clone get set put add addAll remove clear size isEmpty
    contains containsKey iterator hasNext next stream map filter forEach collect reduce toList of
    valueOf orElse isPresent ifPresent length append format close run call apply accept test
    getName getValue getKey start stop print println`.split(/\s+/),
};
