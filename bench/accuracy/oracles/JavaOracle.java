/*
 * Java call-graph oracle for bench/accuracy (see ../FORMAT.md).
 *
 * Uses javac's Compiler Tree API (JavacTask parse() + analyze(), com.sun.source.*) so every
 * callee is the declaration javac's own attribution selected (overloads, inheritance, static
 * types). Only the JDK is needed; run as a single-file source program:
 *
 *   java -Xmx4g bench/accuracy/oracles/JavaOracle.java --root DIR --out FILE \
 *        [--include relDir ...] [--exclude relDir ...] [--classpath CP]
 *
 * Third-party dependencies are normally absent, so compile errors are expected: they are
 * counted and swallowed, and attribution is forced to continue (-XDshould-stop.ifError=FLOW).
 *
 * Decisions on FORMAT.md for Java:
 *  - def line = line of the method/constructor NAME token (found in the source text after the
 *    modifiers / type parameters / return type); constructor defs are named after their class.
 *  - caller = innermost explicit method/constructor (incl. methods of anonymous classes and of
 *    enum-constant bodies); lambdas and method references are transparent; code in a field
 *    initializer, initializer block or enum-constant argument list belongs to the enclosing
 *    NAMED class (its name line); for an anonymous class body the caller is the context of the
 *    `new` expression (or enum constant) that creates it.
 *  - callee = the method javac selected (interface/abstract declaration, never an override).
 *  - new X(..)/super(..)/this(..) -> calls entry to the constructor javac selected when it is
 *    explicitly declared in the analysed files; when it is the implicit default constructor ->
 *    instantiates entry to that class. `new X(..) { body }` (anonymous): the superclass
 *    constructor the anonymous class delegates to (same rule); an anonymous class implementing an
 *    interface declared in the analysed files -> instantiates entry to that interface.
 *  - enum constants `A(1)`, `B`, `C { .. }` are calls (site = constant name line, caller = enum
 *    class line) to the enum constructor javac selected, only when that constructor is explicit
 *    (no instantiates entries for enum constants).
 *  - method references (X::m) are NOT calls. Implicit super() calls and other compiler-generated
 *    code are ignored. Calls into generated members (enum values()/valueOf(), record accessors)
 *    are dropped like library calls.
 *  - unresolved: javac found no method (error symbol), or the selection is not trustworthy
 *    (an ambiguity error on the call, or an argument of erroneous type while the target has
 *    overloads of the same name).
 */

import com.sun.source.tree.*;
import com.sun.source.util.*;

import javax.lang.model.element.*;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;
import javax.lang.model.util.Elements;
import javax.tools.*;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.stream.*;

public class JavaOracle {
    static final long NOPOS = Diagnostic.NOPOS;

    // ---------------------------------------------------------------- arguments / files
    static Path root;
    static final List<String> includes = new ArrayList<>();
    static final List<String> excludes = new ArrayList<>();
    static String classpath = null;
    static String outFile = null;

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--root": root = Paths.get(args[++i]).toAbsolutePath().normalize(); break;
                case "--out": outFile = args[++i]; break;
                case "--include": includes.add(trimSlash(args[++i])); break;
                case "--exclude": excludes.add(trimSlash(args[++i])); break;
                case "--classpath": case "--cp": classpath = args[++i]; break;
                default:
                    System.err.println("unknown argument: " + a);
                    System.err.println("usage: java JavaOracle.java --root DIR --out FILE [--include relDir ...] [--exclude relDir ...] [--classpath CP]");
                    System.exit(2);
            }
        }
        if (root == null || outFile == null) {
            System.err.println("usage: java JavaOracle.java --root DIR --out FILE [--include relDir ...] [--exclude relDir ...] [--classpath CP]");
            System.exit(2);
        }
        long t0 = System.nanoTime();
        List<Path> files = collect();
        new JavaOracle().run(files, t0);
    }

    static String trimSlash(String s) {
        s = s.replace('\\', '/');
        while (s.startsWith("./")) s = s.substring(2);
        while (s.endsWith("/")) s = s.substring(0, s.length() - 1);
        return s;
    }

    static boolean under(String rel, String dir) {
        return dir.isEmpty() || dir.equals(".") || rel.equals(dir) || rel.startsWith(dir + "/");
    }

    static String rel(Path p) {
        return root.relativize(p.toAbsolutePath().normalize()).toString().replace(File.separatorChar, '/');
    }

    static List<Path> collect() throws IOException {
        Set<String> skipNames = Set.of("build", "target", "out", ".git", "node_modules");
        List<Path> out = new ArrayList<>();
        Files.walkFileTree(root, new SimpleFileVisitor<Path>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, java.nio.file.attribute.BasicFileAttributes attrs) {
                if (dir.equals(root)) return FileVisitResult.CONTINUE;
                String r = rel(dir);
                if (skipNames.contains(dir.getFileName().toString())) return FileVisitResult.SKIP_SUBTREE;
                for (String e : excludes) if (under(r, e)) return FileVisitResult.SKIP_SUBTREE;
                if (!includes.isEmpty()) {
                    boolean ok = false;
                    for (String in : includes) if (under(r, in) || under(in, r)) { ok = true; break; }
                    if (!ok) return FileVisitResult.SKIP_SUBTREE;
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path f, java.nio.file.attribute.BasicFileAttributes attrs) {
                String n = f.getFileName().toString();
                if (!n.endsWith(".java") || n.equals("module-info.java") || n.equals("package-info.java"))
                    return FileVisitResult.CONTINUE;
                String r = rel(f);
                if (!includes.isEmpty()) {
                    boolean ok = false;
                    for (String in : includes) if (under(r, in)) { ok = true; break; }
                    if (!ok) return FileVisitResult.CONTINUE;
                }
                for (String e : excludes) if (under(r, e)) return FileVisitResult.CONTINUE;
                out.add(f.toAbsolutePath().normalize());
                return FileVisitResult.CONTINUE;
            }
        });
        out.sort(Comparator.comparing(JavaOracle::rel));
        return out;
    }

    // ---------------------------------------------------------------- analysis state
    Trees trees;
    Elements elements;
    SourcePositions sp;
    final Map<CompilationUnitTree, Unit> units = new IdentityHashMap<>();
    final Map<JavaFileObject, Unit> unitsByFile = new HashMap<>();
    final Map<Element, Object> targetCache = new HashMap<>();   // Element -> Target or NONE
    static final Object NONE = new Object();
    final Map<String, List<Long>> ambiguousPositions = new HashMap<>(); // file uri -> positions
    int errorCount = 0, warningCount = 0;

    static final class Unit {
        CompilationUnitTree cu;
        String path;
        String src;
        LineMap lines;
    }

    /** A resolved declaration in an analysed file. */
    static final class Target {
        String loc;          // path:line
        boolean explicit;    // explicit method/constructor declaration (a def)
        String classLoc;     // for constructors: declaring class's path:line
    }

    final List<String[]> defs = new ArrayList<>();        // path, line, name, kind
    final Set<String> defKeys = new HashSet<>();
    final List<String[]> calls = new ArrayList<>();       // caller, callee, site
    final List<String[]> insts = new ArrayList<>();       // caller, class, site
    final List<String[]> unresolved = new ArrayList<>();  // caller, name, site

    void run(List<Path> files, long t0) throws Exception {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        if (javac == null) throw new IllegalStateException("no system Java compiler (need a JDK, not a JRE)");
        Path empty = Files.createTempDirectory("javaoracle-empty");
        DiagnosticListener<JavaFileObject> listener = d -> {
            if (d.getKind() == Diagnostic.Kind.ERROR) {
                errorCount++;
                String code = d.getCode();
                if (code != null && code.startsWith("compiler.err.ref.ambiguous") && d.getSource() != null) {
                    ambiguousPositions.computeIfAbsent(d.getSource().toUri().toString(), k -> new ArrayList<>())
                        .add(d.getPosition());
                }
            } else if (d.getKind() == Diagnostic.Kind.WARNING || d.getKind() == Diagnostic.Kind.MANDATORY_WARNING) {
                warningCount++;
            }
        };
        StandardJavaFileManager fm = javac.getStandardFileManager(listener, Locale.ROOT, StandardCharsets.UTF_8);
        Iterable<? extends JavaFileObject> fos = fm.getJavaFileObjectsFromPaths(files);
        List<String> opts = new ArrayList<>(List.of(
            "-proc:none", "-implicit:none", "-encoding", "UTF-8",
            "-Xmaxerrs", "10000000", "-nowarn", "-Xlint:none",
            "-XDshould-stop.ifError=FLOW", "-XDshould-stop.ifNoError=FLOW",
            "-sourcepath", empty.toString(),
            "-classpath", classpath != null ? classpath : empty.toString()));
        JavacTask task = (JavacTask) javac.getTask(null, fm, listener, opts, null, fos);
        trees = Trees.instance(task);
        elements = task.getElements();
        sp = trees.getSourcePositions();

        Iterable<? extends CompilationUnitTree> cus = task.parse();
        for (CompilationUnitTree cu : cus) {
            Unit u = new Unit();
            u.cu = cu;
            u.path = rel(Paths.get(cu.getSourceFile().toUri()));
            u.src = cu.getSourceFile().getCharContent(true).toString();
            u.lines = cu.getLineMap();
            units.put(cu, u);
            unitsByFile.put(cu.getSourceFile(), u);
        }
        try {
            task.analyze();
        } catch (Throwable t) {
            System.err.println("warning: javac analyze() threw " + t + " (continuing with what was attributed)");
        }
        long tCompile = System.nanoTime();

        List<Unit> ordered = new ArrayList<>(units.values());
        ordered.sort(Comparator.comparing(x -> x.path));
        for (Unit u : ordered) {
            try {
                new Scanner(u).scan(u.cu, null);
            } catch (Throwable t) {
                System.err.println("warning: scanning " + u.path + " failed: " + t);
                t.printStackTrace();
            }
        }
        writeJson(ordered);
        long t1 = System.nanoTime();
        System.err.printf(Locale.ROOT,
            "javac %s: files=%d defs=%d calls=%d instantiates=%d unresolved=%d compile_errors=%d (swallowed) time=%.1fs (javac %.1fs)%n",
            System.getProperty("java.version"), ordered.size(), defs.size(), calls.size(), insts.size(),
            unresolved.size(), errorCount, (t1 - t0) / 1e9, (tCompile - t0) / 1e9);
    }

    // ---------------------------------------------------------------- positions
    static int lineOf(Unit u, long pos) {
        return (int) u.lines.getLineNumber(pos);
    }

    static boolean isIdStart(char c) { return Character.isJavaIdentifierStart(c); }
    static boolean isIdPart(char c) { return Character.isJavaIdentifierPart(c); }

    /** Position of the first identifier token equal to name in src[from, to), skipping comments and literals. */
    static long findIdent(String src, long from, long to, String name) {
        int i = (int) Math.max(0, from);
        int end = (int) Math.min(src.length(), to < 0 ? src.length() : to);
        while (i < end) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < end && src.charAt(i + 1) == '/') {
                while (i < end && src.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < end && src.charAt(i + 1) == '*') {
                int k = src.indexOf("*/", i + 2);
                i = k < 0 ? end : k + 2;
            } else if (c == '"' || c == '\'') {
                int k = i + 1;
                while (k < end && src.charAt(k) != c) { if (src.charAt(k) == '\\') k++; k++; }
                i = k + 1;
            } else if (isIdStart(c)) {
                int k = i + 1;
                while (k < end && isIdPart(src.charAt(k))) k++;
                if (k - i == name.length() && src.regionMatches(i, name, 0, name.length())) return i;
                i = k;
            } else {
                i++;
            }
        }
        return -1;
    }

    long endOf(Unit u, Tree t) {
        return t == null ? NOPOS : sp.getEndPosition(u.cu, t);
    }

    /** Source offset of the name token of a method/constructor/class declaration, or -1. */
    long declNamePos(Unit u, Tree t) {
        long start = sp.getStartPosition(u.cu, t);
        long end = sp.getEndPosition(u.cu, t);
        if (start == NOPOS) return -1;
        if (t instanceof MethodTree) {
            MethodTree m = (MethodTree) t;
            long from = start;
            long me = endOf(u, m.getModifiers());
            if (me != NOPOS && me > from) from = me;
            for (TypeParameterTree tp : m.getTypeParameters()) {
                long e = endOf(u, tp);
                if (e != NOPOS && e > from) from = e;
            }
            long re = endOf(u, m.getReturnType());
            if (re != NOPOS && re > from) from = re;
            String name = m.getName().contentEquals("<init>") ? enclosingClassName(u, m) : m.getName().toString();
            long p = name == null ? -1 : findIdent(u.src, from, end, name);
            return p;
        } else if (t instanceof ClassTree) {
            ClassTree c = (ClassTree) t;
            long from = start;
            long me = endOf(u, c.getModifiers());
            if (me != NOPOS && me > from) from = me;
            return findIdent(u.src, from, end, c.getSimpleName().toString());
        } else if (t instanceof VariableTree) {
            VariableTree v = (VariableTree) t;
            long from = start;
            long me = endOf(u, v.getModifiers());
            if (me != NOPOS && me > from) from = me;
            long te = endOf(u, v.getType());
            if (te != NOPOS && te > from && te < end) from = te;
            return findIdent(u.src, from, end, v.getName().toString());
        }
        return start;
    }

    String enclosingClassName(Unit u, MethodTree m) {
        TreePath p = trees.getPath(u.cu, m);
        if (p == null) return null;
        for (TreePath q = p.getParentPath(); q != null; q = q.getParentPath())
            if (q.getLeaf() instanceof ClassTree) return ((ClassTree) q.getLeaf()).getSimpleName().toString();
        return null;
    }

    String loc(Unit u, Tree declTree) {
        long p = declNamePos(u, declTree);
        if (p < 0) p = sp.getStartPosition(u.cu, declTree);
        return u.path + ":" + lineOf(u, p);
    }

    /** Declaration of an element inside the analysed files, or null. */
    Target target(Element e) {
        Object c = targetCache.get(e);
        if (c != null) return c == NONE ? null : (Target) c;
        Target t = null;
        TreePath p = null;
        try { p = trees.getPath(e); } catch (Throwable ignore) { }
        if (p != null) {
            Unit u = units.get(p.getCompilationUnit());
            Tree leaf = p.getLeaf();
            if (u != null && (leaf instanceof MethodTree || leaf instanceof ClassTree)) {
                t = new Target();
                if (leaf instanceof MethodTree) {
                    t.explicit = isExplicit(u, (MethodTree) leaf, e);
                    t.loc = t.explicit ? loc(u, leaf) : null;
                    TreePath cp = p.getParentPath();
                    while (cp != null && !(cp.getLeaf() instanceof ClassTree)) cp = cp.getParentPath();
                    if (cp != null) t.classLoc = classLoc(u, (ClassTree) cp.getLeaf());
                } else {
                    t.explicit = false;
                    t.loc = null;
                    t.classLoc = classLoc(u, (ClassTree) leaf);
                }
            }
        }
        targetCache.put(e, t == null ? NONE : t);
        return t;
    }

    String classLoc(Unit u, ClassTree c) {
        if (c.getSimpleName().length() == 0) return null; // anonymous: no name line
        return loc(u, c);
    }

    boolean isExplicit(Unit u, MethodTree m, Element e) {
        if (sp.getEndPosition(u.cu, m) == NOPOS || sp.getStartPosition(u.cu, m) == NOPOS) return false;
        if (e != null) {
            try {
                if (elements.getOrigin(e) != Elements.Origin.EXPLICIT) return false;
            } catch (Throwable ignore) { }
        }
        return declNamePos(u, m) >= 0;
    }

    // ---------------------------------------------------------------- scanning
    final class Scanner extends TreePathScanner<Void, Void> {
        final Unit u;
        Scanner(Unit u) { this.u = u; }

        @Override
        public Void visitMethod(MethodTree m, Void v) {
            Element e = trees.getElement(getCurrentPath());
            if (!isExplicit(u, m, e)) return null; // generated (default/anonymous ctor, record members)
            boolean ctor = m.getName().contentEquals("<init>");
            String name = ctor ? enclosingClassName(u, m) : m.getName().toString();
            long p = declNamePos(u, m);
            String key = u.path + ":" + lineOf(u, p) + ":" + name;
            if (defKeys.add(key))
                defs.add(new String[]{u.path, String.valueOf(lineOf(u, p)), name, ctor ? "constructor" : "method"});
            return super.visitMethod(m, v);
        }

        @Override
        public Void visitMemberReference(MemberReferenceTree node, Void v) {
            // not a call; scan the qualifier expression only
            return scan(node.getQualifierExpression(), v);
        }

        @Override
        public Void visitMethodInvocation(MethodInvocationTree node, Void v) {
            handleInvocation(getCurrentPath(), node);
            return super.visitMethodInvocation(node, v);
        }

        @Override
        public Void visitNewClass(NewClassTree node, Void v) {
            handleNew(getCurrentPath(), node);
            return super.visitNewClass(node, v);
        }

        // ------------------------------------------------ caller
        String caller(TreePath path) {
            for (TreePath p = path.getParentPath(); p != null; p = p.getParentPath()) {
                Tree t = p.getLeaf();
                if (t instanceof MethodTree) {
                    MethodTree m = (MethodTree) t;
                    if (isExplicit(u, m, trees.getElement(p))) return loc(u, m);
                    // generated method: keep looking outward
                } else if (t instanceof ClassTree) {
                    ClassTree c = (ClassTree) t;
                    if (c.getSimpleName().length() > 0) return loc(u, c);
                    // anonymous class body (initializer / field): context of the creating expression
                } else if (t instanceof CompilationUnitTree) {
                    return u.path + ":0";
                }
            }
            return u.path + ":0";
        }

        // ------------------------------------------------ method invocations
        void handleInvocation(TreePath path, MethodInvocationTree node) {
            if (sp.getEndPosition(u.cu, node) == NOPOS || sp.getStartPosition(u.cu, node) == NOPOS) return; // implicit super()
            ExpressionTree sel = node.getMethodSelect();
            String name;
            long namePos;
            if (sel instanceof MemberSelectTree) {
                name = ((MemberSelectTree) sel).getIdentifier().toString();
                long e = sp.getEndPosition(u.cu, sel);
                namePos = e - name.length();
                if (e == NOPOS || namePos < 0 || !u.src.regionMatches((int) namePos, name, 0, name.length()))
                    namePos = fallbackNamePos(sel, name);
            } else if (sel instanceof IdentifierTree) {
                name = ((IdentifierTree) sel).getName().toString();
                namePos = sp.getStartPosition(u.cu, sel);
            } else {
                name = sel.toString();
                namePos = sp.getStartPosition(u.cu, sel);
            }
            if (namePos < 0) return;
            // generated call whose name token is not in the source (e.g. implicit super())
            if (!u.src.regionMatches((int) namePos, name, 0, name.length())) return;
            int site = lineOf(u, namePos);
            String caller = caller(path);

            Element el = null;
            try { el = trees.getElement(path); } catch (Throwable ignore) { }
            if (el == null) {
                try { el = trees.getElement(new TreePath(path, sel)); } catch (Throwable ignore) { }
            }
            if (!(el instanceof ExecutableElement) || isErroneous(el)) {
                unresolved.add(new String[]{caller, name, String.valueOf(site)});
                return;
            }
            if (untrustworthy(path, node.getArguments(), (ExecutableElement) el,
                    sp.getStartPosition(u.cu, sel), sp.getEndPosition(u.cu, sel))) {
                unresolved.add(new String[]{caller, name, String.valueOf(site)});
                return;
            }
            Target t = target(el);
            if (t == null) return; // library / JDK
            if (t.explicit) {
                calls.add(new String[]{caller, t.loc, String.valueOf(site)});
            } else if (el.getKind() == ElementKind.CONSTRUCTOR && t.classLoc != null) {
                // explicit super()/this() reaching an implicit default constructor
                insts.add(new String[]{caller, t.classLoc, String.valueOf(site)});
            }
            // other generated targets (values(), valueOf(), record accessors): dropped
        }

        long fallbackNamePos(Tree sel, String name) {
            long s = sp.getStartPosition(u.cu, sel), e = sp.getEndPosition(u.cu, sel);
            if (s == NOPOS) return -1;
            long best = -1, from = s;
            while (true) {
                long p = findIdent(u.src, from, e, name);
                if (p < 0) break;
                best = p;
                from = p + name.length();
            }
            return best;
        }

        // ------------------------------------------------ object creation
        void handleNew(TreePath path, NewClassTree node) {
            Tree parent = path.getParentPath() == null ? null : path.getParentPath().getLeaf();
            boolean enumConst = false;
            if (parent instanceof VariableTree && ((VariableTree) parent).getInitializer() == node) {
                Element ve = trees.getElement(path.getParentPath());
                enumConst = ve != null && ve.getKind() == ElementKind.ENUM_CONSTANT;
            }
            String name;
            long namePos;
            String caller;
            if (enumConst) {
                VariableTree vt = (VariableTree) parent;
                name = vt.getName().toString();
                namePos = declNamePos(u, vt);
                if (namePos < 0) return;
                // the enum class
                TreePath cp = path.getParentPath().getParentPath();
                caller = cp != null && cp.getLeaf() instanceof ClassTree ? loc(u, cp.getLeaf()) : u.path + ":0";
            } else {
                if (sp.getStartPosition(u.cu, node) == NOPOS) return;
                Tree id = node.getIdentifier();
                while (true) {
                    if (id instanceof ParameterizedTypeTree) id = ((ParameterizedTypeTree) id).getType();
                    else if (id instanceof AnnotatedTypeTree) id = ((AnnotatedTypeTree) id).getUnderlyingType();
                    else break;
                }
                if (id instanceof MemberSelectTree) {
                    name = ((MemberSelectTree) id).getIdentifier().toString();
                    long e = sp.getEndPosition(u.cu, id);
                    namePos = e - name.length();
                    if (e == NOPOS || namePos < 0 || !u.src.regionMatches((int) namePos, name, 0, name.length()))
                        namePos = fallbackNamePos(id, name);
                } else if (id instanceof IdentifierTree) {
                    name = ((IdentifierTree) id).getName().toString();
                    namePos = sp.getStartPosition(u.cu, id);
                } else {
                    name = String.valueOf(id);
                    namePos = sp.getStartPosition(u.cu, id);
                }
                if (namePos < 0) return;
                caller = caller(path);
            }
            int site = lineOf(u, namePos);

            Element el = null;
            try { el = trees.getElement(path); } catch (Throwable ignore) { }
            ClassTree body = node.getClassBody();
            if (!(el instanceof ExecutableElement) || isErroneous(el)) {
                if (!enumConst) unresolved.add(new String[]{caller, name, String.valueOf(site)});
                return;
            }
            ExecutableElement ctor = (ExecutableElement) el;
            if (body != null && isAnonymous(ctor.getEnclosingElement())) {
                // anonymous class: the constructor that runs is the supertype constructor the
                // anonymous constructor delegates to (or none for an interface)
                Element superCtor = anonSuperCtor(path, body);
                Element clazz = null;
                try { clazz = trees.getElement(new TreePath(path, node.getIdentifier())); } catch (Throwable ignore) { }
                if (clazz == null || clazz.asType().getKind() == TypeKind.ERROR) {
                    if (!enumConst) unresolved.add(new String[]{caller, name, String.valueOf(site)});
                    return;
                }
                if (clazz.getKind() == ElementKind.INTERFACE || clazz.getKind() == ElementKind.ANNOTATION_TYPE) {
                    if (enumConst) return;
                    Target ct = target(clazz);
                    if (ct != null && ct.classLoc != null)
                        insts.add(new String[]{caller, ct.classLoc, String.valueOf(site)});
                    return;
                }
                if (!(superCtor instanceof ExecutableElement) || isErroneous(superCtor)) {
                    if (!enumConst) unresolved.add(new String[]{caller, name, String.valueOf(site)});
                    return;
                }
                ctor = (ExecutableElement) superCtor;
            }
            if (!enumConst && untrustworthy(path, node.getArguments(), ctor,
                    sp.getStartPosition(u.cu, node), sp.getStartPosition(u.cu, node) + 3 /* 'new' */)) {
                unresolved.add(new String[]{caller, name, String.valueOf(site)});
                return;
            }
            Target t = target(ctor);
            if (t == null) return; // library class
            if (t.explicit) calls.add(new String[]{caller, t.loc, String.valueOf(site)});
            else if (!enumConst && t.classLoc != null) insts.add(new String[]{caller, t.classLoc, String.valueOf(site)});
        }

        Element anonSuperCtor(TreePath newPath, ClassTree body) {
            TreePath bodyPath = new TreePath(newPath, body);
            for (Tree m : body.getMembers()) {
                if (!(m instanceof MethodTree)) continue;
                MethodTree mt = (MethodTree) m;
                if (!mt.getName().contentEquals("<init>") || mt.getBody() == null) continue;
                TreePath mp = new TreePath(bodyPath, mt);
                TreePath bp = new TreePath(mp, mt.getBody());
                for (StatementTree st : mt.getBody().getStatements()) {
                    if (st instanceof ExpressionStatementTree
                            && ((ExpressionStatementTree) st).getExpression() instanceof MethodInvocationTree) {
                        MethodInvocationTree inv = (MethodInvocationTree) ((ExpressionStatementTree) st).getExpression();
                        TreePath ip = new TreePath(new TreePath(bp, st), inv);
                        Element e = trees.getElement(ip);
                        if (e == null) e = trees.getElement(new TreePath(ip, inv.getMethodSelect()));
                        return e;
                    }
                }
            }
            return null;
        }

        /** True when javac's choice cannot be trusted (ambiguity error, or erroneous argument + overloads). */
        boolean untrustworthy(TreePath path, List<? extends ExpressionTree> args, ExecutableElement m,
                              long selStart, long selEnd) {
            List<Long> amb = ambiguousPositions.get(u.cu.getSourceFile().toUri().toString());
            if (amb != null && selStart != NOPOS)
                for (long p : amb) if (p >= selStart && p <= selEnd) return true;
            boolean errArg = false;
            for (ExpressionTree a : args) {
                TypeMirror tm = null;
                try { tm = trees.getTypeMirror(new TreePath(path, a)); } catch (Throwable ignore) { }
                if (tm == null || tm.getKind() == TypeKind.ERROR) {
                    // lambdas / method refs may legitimately have no standalone type
                    if (a instanceof LambdaExpressionTree || a instanceof MemberReferenceTree) continue;
                    errArg = true;
                    break;
                }
            }
            if (!errArg) return false;
            // candidate owners: the selected method's class, the receiver's static type, and (for
            // unqualified calls) the enclosing classes of the call site
            Set<TypeElement> owners = new LinkedHashSet<>();
            if (m.getEnclosingElement() instanceof TypeElement) owners.add((TypeElement) m.getEnclosingElement());
            Tree leaf = path.getLeaf();
            if (leaf instanceof MethodInvocationTree) {
                ExpressionTree sel = ((MethodInvocationTree) leaf).getMethodSelect();
                if (sel instanceof MemberSelectTree) {
                    try {
                        TypeMirror rt = trees.getTypeMirror(new TreePath(new TreePath(path, sel),
                            ((MemberSelectTree) sel).getExpression()));
                        if (rt instanceof javax.lang.model.type.DeclaredType) {
                            Element re = ((javax.lang.model.type.DeclaredType) rt).asElement();
                            if (re instanceof TypeElement) owners.add((TypeElement) re);
                        }
                    } catch (Throwable ignore) { }
                } else {
                    for (TreePath p = path; p != null; p = p.getParentPath())
                        if (p.getLeaf() instanceof ClassTree) {
                            Element ce = trees.getElement(p);
                            if (ce instanceof TypeElement) owners.add((TypeElement) ce);
                        }
                }
            }
            return ambiguousOverloads(m, owners);
        }
    }

    static boolean isAnonymous(Element e) {
        return e instanceof TypeElement && ((TypeElement) e).getNestingKind() == NestingKind.ANONYMOUS;
    }

    static boolean isErroneous(Element e) {
        if (e == null) return true;
        try {
            TypeMirror t = e.asType();
            if (t == null || t.getKind() == TypeKind.ERROR) return true;
            Element owner = e.getEnclosingElement();
            if (owner != null && owner.asType() != null && owner.asType().getKind() == TypeKind.ERROR) return true;
        } catch (Throwable ex) {
            return true;
        }
        return false;
    }

    /**
     * More than one same-named candidate among the owners' members, at least one of them declared
     * in the analysed files (if all candidates are library methods the call is a library call
     * whichever overload is picked, and it is dropped like any library call).
     */
    boolean ambiguousOverloads(ExecutableElement m, Set<TypeElement> owners) {
        Set<Element> cands = new LinkedHashSet<>();
        for (TypeElement owner : owners) {
            List<Element> ms = membersNamed(owner, m.getSimpleName().toString(), m.getKind());
            if (ms == null) return true;
            cands.addAll(ms);
        }
        if (cands.size() <= 1) return false;
        for (Element c : cands) if (target(c) != null) return true;
        return false;
    }

    final Map<TypeElement, Map<String, List<Element>>> memberCache = new HashMap<>();

    List<Element> membersNamed(TypeElement owner, String name, ElementKind kind) {
        Map<String, List<Element>> byName = memberCache.get(owner);
        if (byName == null) {
            byName = new HashMap<>();
            try {
                for (Element e : elements.getAllMembers(owner))
                    if (e.getKind() == ElementKind.METHOD || e.getKind() == ElementKind.CONSTRUCTOR)
                        byName.computeIfAbsent(e.getKind() + " " + e.getSimpleName(), k -> new ArrayList<>()).add(e);
            } catch (Throwable ex) {
                byName = null;
            }
            memberCache.put(owner, byName);
        }
        if (byName == null) return null;
        return byName.getOrDefault(kind + " " + name, List.of());
    }

    // ---------------------------------------------------------------- output
    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': b.append("\\\""); break;
                case '\\': b.append("\\\\"); break;
                case '\n': b.append("\\n"); break;
                case '\r': b.append("\\r"); break;
                case '\t': b.append("\\t"); break;
                default:
                    if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
                    else b.append(c);
            }
        }
        return b.append('"').toString();
    }

    static Comparator<String[]> cmp(int... numericCols) {
        Set<Integer> nums = Arrays.stream(numericCols).boxed().collect(Collectors.toSet());
        return (a, b) -> {
            for (int i = 0; i < a.length; i++) {
                int c = nums.contains(i) ? Integer.compare(Integer.parseInt(a[i]), Integer.parseInt(b[i])) : a[i].compareTo(b[i]);
                if (c != 0) return c;
            }
            return 0;
        };
    }

    void writeJson(List<Unit> ordered) throws IOException {
        defs.sort(cmp(1));
        calls.sort(cmp(2));
        insts.sort(cmp(2));
        unresolved.sort(cmp(2));
        StringBuilder b = new StringBuilder();
        b.append("{\n");
        b.append("  \"oracle\": ").append(q("javac " + System.getProperty("java.version") + " (Compiler Tree API)")).append(",\n");
        b.append("  \"language\": \"java\",\n");
        b.append("  \"root\": ").append(q(root.toString())).append(",\n");
        b.append("  \"files\": [");
        for (int i = 0; i < ordered.size(); i++) b.append(i == 0 ? "\n    " : ",\n    ").append(q(ordered.get(i).path));
        b.append(ordered.isEmpty() ? "],\n" : "\n  ],\n");
        b.append("  \"defs\": [");
        for (int i = 0; i < defs.size(); i++) {
            String[] d = defs.get(i);
            b.append(i == 0 ? "\n    " : ",\n    ")
                .append("{\"path\": ").append(q(d[0])).append(", \"line\": ").append(d[1])
                .append(", \"name\": ").append(q(d[2])).append(", \"kind\": ").append(q(d[3])).append('}');
        }
        b.append(defs.isEmpty() ? "],\n" : "\n  ],\n");
        b.append("  \"calls\": [");
        for (int i = 0; i < calls.size(); i++) {
            String[] c = calls.get(i);
            b.append(i == 0 ? "\n    " : ",\n    ")
                .append("{\"caller\": ").append(q(c[0])).append(", \"callee\": ").append(q(c[1]))
                .append(", \"site\": ").append(c[2]).append('}');
        }
        b.append(calls.isEmpty() ? "],\n" : "\n  ],\n");
        b.append("  \"instantiates\": [");
        for (int i = 0; i < insts.size(); i++) {
            String[] c = insts.get(i);
            b.append(i == 0 ? "\n    " : ",\n    ")
                .append("{\"caller\": ").append(q(c[0])).append(", \"class\": ").append(q(c[1]))
                .append(", \"site\": ").append(c[2]).append('}');
        }
        b.append(insts.isEmpty() ? "],\n" : "\n  ],\n");
        b.append("  \"unresolved\": [");
        for (int i = 0; i < unresolved.size(); i++) {
            String[] c = unresolved.get(i);
            b.append(i == 0 ? "\n    " : ",\n    ")
                .append("{\"caller\": ").append(q(c[0])).append(", \"name\": ").append(q(c[1]))
                .append(", \"site\": ").append(c[2]).append('}');
        }
        b.append(unresolved.isEmpty() ? "]\n" : "\n  ]\n");
        b.append("}\n");
        Path out = Paths.get(outFile);
        if (out.toAbsolutePath().getParent() != null) Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, b.toString(), StandardCharsets.UTF_8);
    }
}
