package org.carecompliance.app;

import com.getcapacitor.BridgeActivity;

public class MainActivity extends BridgeActivity {}
