package model

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/agnivade/levenshtein"
)

// The optional methods of an Algorithm are found by type assertion, so a
// method that is misspelled (Timer for Timers), has another signature
// (MsgType(m M) for MsgType(m *M)) or sits on the pointer receiver of an
// algorithm passed as a value compiles and is silently never called: the
// timers never fire, every message is of type "MSG", the properties are
// never checked. CheckMethods finds those traps with reflect, where an
// algorithm is registered (specs.Builder, mchecktest).

// optional is one optional interface: what it is called in errors and what
// is lost without it.
type optional struct {
	iface reflect.Type
	name  string
	lost  string
}

func optionals[L, M any]() []optional {
	return []optional{
		{reflect.TypeFor[Leaderer[L]](), "model.Leaderer", "no process can start as an elected leader (Config.InitialLeader)"},
		{reflect.TypeFor[LeaderSelfer[L]](), "model.LeaderSelfer", "every process starts in InitLeader's local state (Config.InitialLeader)"},
		{reflect.TypeFor[Restarter[L, M]](), "model.Restarter", "a restarted process takes no step of its own"},
		{reflect.TypeFor[Timed[L, M]](), "model.Timed", "the timers never fire"},
		{reflect.TypeFor[InitiateNamer](), "model.InitiateNamer", `the initiate step keeps the name "initiate"`},
		{reflect.TypeFor[MsgDescriber[M]](), "model.MsgDescriber", "traces describe messages by their Go fields"},
		{reflect.TypeFor[LocalFormatter[L, M]](), "model.LocalFormatter", "traces show local states by their Go fields"},
		{reflect.TypeFor[RingLocal](), "model.RingLocal", "partial-order reduction stays off"},
		{reflect.TypeFor[MsgTyper[M]](), "model.MsgTyper", `every message counts as type "MSG"`},
		{reflect.TypeFor[Codec[L, M]](), "model.Codec", "states are hashed through hashstructure (slow) instead of the codec"},
		{reflect.TypeFor[Propertied[L, M]](), "model.Propertied", "its properties are never checked"},
		{reflect.TypeFor[Parameterized](), "model.Parameterized", "it declares no parameters (Config.Params)"},
	}
}

// CheckMethods reports the exported methods of alg that look like one of
// the optional methods (the same name, or one within a small edit
// distance, case aside) but that mcheck will never call: another
// signature, a pointer receiver on an algorithm given as a value, another
// name, or one method of a pair (MsgTyper, Codec) without the other. The
// error names the signature mcheck expects. nil when there is none.
func CheckMethods[L, M any](alg Algorithm[L, M]) error {
	dyn := reflect.TypeOf(alg)
	if dyn == nil {
		return nil
	}
	all := dyn // every method declared, value and pointer receivers
	if dyn.Kind() != reflect.Pointer {
		all = reflect.PointerTo(dyn)
	}
	type want struct {
		opt  optional
		name string
		sig  reflect.Type // without the receiver
	}
	known := map[string]want{}
	lower := map[string]string{} // lower-case name → name
	var opts []optional
	for _, o := range optionals[L, M]() {
		opts = append(opts, o)
		for i := range o.iface.NumMethod() {
			m := o.iface.Method(i)
			known[m.Name] = want{o, m.Name, m.Type}
			lower[strings.ToLower(m.Name)] = m.Name
		}
	}
	required := reflect.TypeFor[Algorithm[L, M]]()
	recv := typeName(dyn)
	var problems []string
	reported := map[string]bool{} // optional methods already named in a problem
	for i := range all.NumMethod() {
		m := all.Method(i)
		sig := withoutReceiver(m.Type)
		if w, ok := known[m.Name]; ok {
			_, inSet := dyn.MethodByName(m.Name)
			switch {
			case sig != w.sig:
				problems = append(problems, fmt.Sprintf("method %s%s does not match %s%s of %s, so mcheck never calls it (%s): declare func (%s) %s%s",
					m.Name, sigText(sig), w.name, sigText(w.sig), w.opt.name, w.opt.lost, recv, w.name, sigText(w.sig)))
				reported[w.name] = true
			case !inSet:
				problems = append(problems, fmt.Sprintf("method %s is declared on the pointer receiver *%s, but the algorithm is a %s value, which does not have it, so mcheck never calls it (%s): declare func (%s) %s%s, or pass &%s{}",
					m.Name, recv, recv, w.opt.lost, recv, w.name, sigText(w.sig), recv))
				reported[w.name] = true
			}
			continue
		}
		if _, ok := required.MethodByName(m.Name); ok {
			continue
		}
		near := nearest(m.Name, lower)
		if near == "" || !mentionsModel[L, M](sig) && sig != known[near].sig {
			continue // a helper of the algorithm's own
		}
		if _, ok := all.MethodByName(near); ok {
			continue // the optional method is there too: this one is another
		}
		w := known[near]
		problems = append(problems, fmt.Sprintf("method %s%s looks like %s%s of %s, but mcheck only calls the method of that name (%s): rename it, func (%s) %s%s",
			m.Name, sigText(sig), w.name, sigText(w.sig), w.opt.name, w.opt.lost, recv, w.name, sigText(w.sig)))
		reported[w.name] = true
	}
	// A pair declared by half: the half that is there is never called.
	for _, o := range opts {
		if o.iface.NumMethod() < 2 {
			continue
		}
		var have, miss []string
		for i := range o.iface.NumMethod() {
			m := o.iface.Method(i)
			if got, ok := dyn.MethodByName(m.Name); ok && withoutReceiver(got.Type) == m.Type {
				have = append(have, m.Name)
			} else if !reported[m.Name] {
				miss = append(miss, fmt.Sprintf("func (%s) %s%s", recv, m.Name, sigText(m.Type)))
			}
		}
		if len(have) > 0 && len(miss) > 0 {
			problems = append(problems, fmt.Sprintf("%s of %s without the rest of it is never called (%s): declare %s",
				strings.Join(have, " and "), o.name, o.lost, strings.Join(miss, " and ")))
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return fmt.Errorf("%s: %s", recv, strings.Join(problems, "; "))
}

// withoutReceiver is the signature of a method of a concrete type (whose
// first parameter is the receiver).
func withoutReceiver(t reflect.Type) reflect.Type {
	in := make([]reflect.Type, 0, t.NumIn()-1)
	for i := 1; i < t.NumIn(); i++ {
		in = append(in, t.In(i))
	}
	out := make([]reflect.Type, t.NumOut())
	for i := range out {
		out[i] = t.Out(i)
	}
	return reflect.FuncOf(in, out, t.IsVariadic())
}

// mentionsModel reports whether a signature has a type of package model,
// L or M in it: then a method of a near name is likely meant as the
// optional method, where a helper of the algorithm's own would not.
func mentionsModel[L, M any](sig reflect.Type) bool {
	pkg := reflect.TypeFor[Dir]().PkgPath()
	l, m := reflect.TypeFor[L](), reflect.TypeFor[M]()
	var mentions func(t reflect.Type, depth int) bool
	mentions = func(t reflect.Type, depth int) bool {
		switch {
		case depth > 4:
			return false
		case t == l || t == m || t.PkgPath() == pkg:
			return true
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Chan:
			return mentions(t.Elem(), depth+1)
		case reflect.Map:
			return mentions(t.Key(), depth+1) || mentions(t.Elem(), depth+1)
		case reflect.Func:
			for i := range t.NumIn() {
				if mentions(t.In(i), depth+1) {
					return true
				}
			}
			for i := range t.NumOut() {
				if mentions(t.Out(i), depth+1) {
					return true
				}
			}
		}
		return false
	}
	return mentions(sig, 0)
}

// nearest is the optional method whose name is within edit distance 2 of
// name, case aside (1 for names of up to 5 letters), or "".
func nearest(name string, lower map[string]string) string {
	best, bestD := "", 3
	n := strings.ToLower(name)
	for l, orig := range lower {
		limit := 2
		if len(l) <= 5 {
			limit = 1
		}
		if d := levenshtein.ComputeDistance(n, l); d <= limit && (d < bestD || d == bestD && orig < best) {
			best, bestD = orig, d
		}
	}
	return best
}

// pkgPaths matches the import paths that reflect writes inside a generic
// type's arguments ("model.Timer[example.com/x/ring.Local,...]").
var pkgPaths = regexp.MustCompile(`[\w.~-]+(/[\w.~-]+)*/`)

// typeName renders t as Go source names it in its package's users:
// "ring.Algorithm", "model.Timer[ring.Local, ring.Msg]".
func typeName(t reflect.Type) string {
	s := pkgPaths.ReplaceAllString(t.String(), "")
	s = strings.ReplaceAll(s, "[]uint8", "[]byte")
	return strings.ReplaceAll(strings.ReplaceAll(s, ",", ", "), ",  ", ", ")
}

// sigText renders a signature without "func": "(*ring.Msg) int".
func sigText(sig reflect.Type) string {
	return strings.TrimPrefix(typeName(sig), "func")
}
