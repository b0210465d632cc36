package model

import (
	"fmt"
	"reflect"
	"unicode"
)

// msgValue is m as data, with the algorithm's text for people.
func (k *Kernel[L, M]) msgValue(m M) Value {
	var v Value
	if d, ok := k.alg.(MsgDescriber[M]); ok {
		v = d.DescribeMsg(m)
	} else {
		v = reflectMsg(m)
	}
	return v.WithText(k.alg.FormatMsg(m))
}

// reflectMsg describes a message of an algorithm without a MsgDescriber:
// a struct whose first exported field is a string or a fmt.Stringer (a
// message kind such as ELECTION) is typed by it, any other by its Go type
// name; the
// (other) exported fields are the arguments, in order. It runs only when a
// trace is rendered, never during the search.
func reflectMsg(m any) Value {
	rv := reflect.ValueOf(m)
	if rv.Kind() != reflect.Struct {
		return Msg(rv.Type().Name(), reflectValue(rv))
	}
	typ, first := rv.Type().Name(), true
	var args []Value
	for i := 0; i < rv.NumField(); i++ {
		if !rv.Type().Field(i).IsExported() {
			continue
		}
		v := reflectValue(rv.Field(i))
		if s, ok := v.Str(); ok && first {
			typ, first = s, false
			continue
		}
		first = false
		args = append(args, v)
	}
	return Msg(typ, args...)
}

// reflectLocal gives the local state of an algorithm without a
// LocalFormatter as fields, one per field of its struct in declaration
// order (unexported ones too: all of it is state), named as the
// algorithms' own are (Elected: "elected", MaxID: "maxID"), so that a
// diff says which field changed ("p3.elected: 0 → 9"). Another type is
// one field, "state". It runs only when a state is rendered.
func reflectLocal(l any) []Field {
	rv := reflect.ValueOf(l)
	if rv.Kind() != reflect.Struct || rv.NumField() == 0 {
		return []Field{{"state", reflectValue(rv)}}
	}
	fields := make([]Field, 0, rv.NumField())
	for i := range rv.NumField() {
		if name := rv.Type().Field(i).Name; name != "_" {
			fields = append(fields, Field{lowerFirst(name), reflectValue(rv.Field(i))})
		}
	}
	return fields
}

// lowerFirst writes a Go field's name as a state's field: its leading
// capitals in lower case, but for the first letter of a word after
// them ("Elected" -> "elected", "ID" -> "id", "IDs" -> "ids", "HTTPPort" ->
// "httpPort").
func lowerFirst(name string) string {
	r := []rune(name)
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) && unicode.IsLower(r[n]) && r[n] != 's' {
		n-- // the capital that starts the next word stays
	}
	for i := range n {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

// reflectValue is a field of a message or a local state as a Value: a
// fmt.Stringer (an enumeration) by its name, a number, boolean or string
// as one, a slice or array as a sequence, anything else as fmt prints it.
// An unexported field's String method cannot be called: its number then.
func reflectValue(rv reflect.Value) Value {
	if rv.CanInterface() {
		if s, ok := rv.Interface().(fmt.Stringer); ok {
			return Str(s.String())
		}
	}
	switch rv.Kind() {
	case reflect.Bool:
		return Bool(rv.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return Int(int(rv.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Int(int(rv.Uint()))
	case reflect.String:
		return Str(rv.String())
	case reflect.Slice, reflect.Array:
		elems := make([]Value, rv.Len())
		for i := range elems {
			elems[i] = reflectValue(rv.Index(i))
		}
		return Seq(elems...)
	}
	return Str(fmt.Sprintf("%+v", rv))
}
