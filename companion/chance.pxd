# Types for the optional compiled build only (python -m companion.compile_engine): the generator's
# 64-bit words as C unsigned integers, which wrap exactly as the sources' "& _MASK"
# does. Plain Python never reads this file.
import cython

cdef unsigned long long _MASK, _GOLDEN, _MIX1, _MIX2

@cython.locals(limit=cython.ulonglong, z=cython.ulonglong, s=cython.ulonglong)
cpdef tuple below(object state, object n)

@cython.locals(i=cython.Py_ssize_t, n=cython.Py_ssize_t, j=cython.Py_ssize_t,
               limit=cython.ulonglong, z=cython.ulonglong, s=cython.ulonglong)
cpdef object shuffle(object state, object items)
