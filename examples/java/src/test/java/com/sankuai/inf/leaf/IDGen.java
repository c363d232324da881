package com.sankuai.inf.leaf;

import com.sankuai.inf.leaf.common.Result;

/** Stand-in for Meituan Leaf's ID generator interface, written from its published signature (for compiling the adapters here). */
public interface IDGen {
    Result get(String key);

    boolean init();
}
