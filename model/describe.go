package model

import (
	"fmt"
	"reflect"
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

func reflectValue(rv reflect.Value) Value {
	if s, ok := rv.Interface().(fmt.Stringer); ok {
		return Str(s.String())
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
	}
	return Str(fmt.Sprintf("%+v", rv.Interface()))
}
