package com.sankuai.inf.leaf.common;

/** Stand-in for Leaf's result status, from its published signature. */
public enum Status {
    SUCCESS,
    EXCEPTION
}
